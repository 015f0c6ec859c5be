/**
 * `inspect --strict`, the pre-flight gate of a pipeline: beyond footage that is not there, footage a render would
 * refuse. A path that is a folder or a FIFO, a file this process may not read, a file that is no media any more,
 * a clip or sound re-exported under the same name (another size, rate, length, layout, start: the checks a render
 * makes, media/footage-unchanged.ts and audio/sound-unchanged.ts), an image sequence whose first frame has
 * another size, an MP4/MOV cut off before its end. Each file's headers are read once (ffprobe, sharp): tens of milliseconds a file. Until
 * 2026-12-07 the gate only looked for files, and passed (exit 0) projects every render of which then failed.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import {
  EngineError,
  sequenceFrame,
  sequenceFrameProblem,
  type ErrorInfo,
  type FootageItem,
  type Project,
} from '../engine/index.js';
import { emptyFile, incompleteFile } from '../node-io/incomplete-file.js';
import { findExecutable } from '../node-io/search-path.js';
import { imageHeader, tooManyPixels } from '../render/image-pixels.js';
import { drawnUpright, uprightSize } from '../render/still-orientation.js';
import { CLI_RELINK, cliInfo } from './cli-words.js';

/** Image headers read at once: a sequence of thousands of frames is read without thousands of files open. */
const HEADERS_AT_ONCE = 32;

const RELINK = `Put the file back as it was, or ${CLI_RELINK}.`;

/** Why a render could not use `path`'s file as it is, or null. */
async function notReadable(path: string): Promise<ErrorInfo | null> {
  const info = await stat(path).catch(() => null);
  if (!info) return null; // Missing: reported as missing already.
  if (!info.isFile()) {
    const what = info.isDirectory() ? 'a folder' : info.isFIFO() ? 'a FIFO' : 'not a regular file';
    return { code: 'bad_argument', message: `"${path}" is ${what}, not a file.`, remediation: RELINK };
  }
  const readable = await access(path, constants.R_OK).then(
    () => true,
    () => false,
  );
  return readable
    ? null
    : {
        code: 'io_error',
        message: `"${path}" cannot be read: permission denied.`,
        remediation: `Give this user read access to the file (chmod, chown), or relink the footage to a copy it can read.`,
      };
}

/** Throws what a render would: the footage item's media facts checked against its file now. */
async function checkMedia(item: FootageItem, ffprobe: string | null): Promise<void> {
  const media = item.media;
  if (media?.kind === 'video' || media?.kind === 'audio') {
    // A gate that could not look does not pass: the file's headers are what a render checks.
    if (!ffprobe)
      throw new EngineError(
        'missing_dependency',
        `"${item.path}" could not be checked: ffprobe (part of ffmpeg) was not found on PATH.`,
        'Install ffmpeg (apt-get install ffmpeg), or put its folder on PATH; video and sound need it to render too.',
      );
    // Loaded only for --strict: they bring the ffprobe parser (zod) that a plain inspect does not need.
    const [{ checkUnchanged }, { checkSoundUnchanged }, { probeMedia }] = await Promise.all([
      import('../render/media/footage-unchanged.js'),
      import('../render/audio/sound-unchanged.js'),
      import('../render/media/probe.js'),
    ]);
    // An MP4/MOV whose index is at its front but whose media is cut off (a copy stopped half-way) reads as whole
    // from its headers; its box sizes say it ends early (incomplete-file.ts), as a render would find frames in.
    const cut = await incompleteFile(item.path, item.path);
    if (cut) throw cut;
    if (media.kind === 'video') await checkUnchanged(ffprobe, item.path, item);
    const streams = media.audioStreams?.length ?? (media.audio ? 1 : 0);
    if (streams)
      await checkSoundUnchanged(
        ({ countPackets }) => probeMedia(ffprobe, item.path, item.path, { countPackets }),
        item,
        Array.from({ length: streams }, (_, i) => i),
      );
    return;
  }
  // A still, or every frame of a sequence (a render refuses any frame of another size): headers only.
  const seq = media?.sequence;
  const frames = seq
    ? Array.from({ length: seq.last - seq.first + 1 }, (_, i) => sequenceFrame(seq.pattern, seq.first + i))
    : [item.path];
  for (let start = 0; start < frames.length; start += HEADERS_AT_ONCE) {
    const batch = frames.slice(start, start + HEADERS_AT_ONCE);
    const metas = await Promise.all(
      batch.map((path) =>
        imageHeader(path)
          // A frame gone from the middle is listed as missing already; one there and unreadable is a problem.
          .catch(() =>
            stat(path).then(
              // An empty frame (a render or copy that never wrote it) is said to be so, as an import says it.
              (st) => (st.size === 0 ? ('empty' as const) : null),
              () => 'gone' as const,
            ),
          ),
      ),
    );
    for (const [i, meta] of metas.entries()) {
      const path = batch[i]!;
      if (meta === 'gone') continue;
      if (meta === 'empty') throw emptyFile(path);
      if (!meta?.width || !meta.height)
        throw new EngineError(
          'unsupported_format',
          `"${path}" is not an image EffectCraft can read.`,
          RELINK,
        );
      // The size a render draws it at: turned by its EXIF orientation (as an item imported before that was read).
      const shown = drawnUpright(item, meta) ? uprightSize(meta) : meta;
      const problem = seq ? sequenceFrameProblem(item, path, shown.width, shown.height) : null;
      if (problem) throw problem;
      const huge = tooManyPixels(path, meta.width, meta.height);
      if (huge) throw huge;
    }
  }
}

/**
 * The problem of each footage item of `doc` whose file is there but which a render would refuse, by item id.
 * `searchPath`: where ffprobe is looked for (without it, video and sound cannot be checked: a problem each).
 */
export async function footageProblems(doc: Project, searchPath?: string): Promise<Map<string, ErrorInfo>> {
  const ffprobe = await findExecutable('ffprobe', searchPath);
  const found = new Map<string, ErrorInfo>();
  const items = doc.items.filter((i): i is FootageItem => i.type === 'footage');
  await Promise.all(
    items.map(async (item) => {
      const unreadable = await notReadable(item.path);
      if (unreadable) return void found.set(item.id, unreadable);
      if (!(await stat(item.path).catch(() => null))) return;
      try {
        await checkMedia(item, ffprobe);
      } catch (err) {
        if (!(err instanceof EngineError)) throw err;
        found.set(item.id, cliInfo(err));
      }
    }),
  );
  return found;
}
