/**
 * What file.import finds in a file: a still (sharp, as always), a video or audio file (ffprobe through the
 * ports), or a numbered image sequence (its frames found through the ports' `exists`, the first read by sharp).
 */
import { basename, extname } from 'node:path';
import type { CommandContext } from '../catalog.js';
import { EngineError, fsError } from '../errors.js';
import {
  findRun,
  framesAfterGap,
  isSequencePattern,
  missingStartFrame,
  noFirstFrame,
  patternOfFile,
  sequenceFrame,
} from '../image-sequence.js';
import type { FootageMedia } from '../model.js';
import {
  lowSampleRate,
  MAX_FOOTAGE_FRAME_RATE,
  MAX_MOVING_SIDE,
  MIN_SAMPLE_RATE,
} from '../footage-limits.js';
import type { ImageInfo } from '../ports.js';

/** All an import needs of a command's context: its ports (a render job probes a footage prop's file too). */
/** What importing needs: the ports, and where to say what the file imported leaves out (a sequence's gap). */
export type Probing = Pick<CommandContext, 'ports'> & Partial<Pick<CommandContext, 'warn'>>;

/** Still formats sharp reads; a GIF with more than one frame is imported as video. */
export const STILL_FORMATS = ['png', 'jpeg', 'webp', 'gif', 'svg'];
const STILL_EXTENSIONS = new Set(['.png', '.jpg', '.jpeg', '.webp', '.gif', '.svg']);
/** Image files VFX and scanning pipelines number (TIFF, EXR, DPX...), which sequences cannot be made of (yet). */
const OTHER_IMAGE_EXTENSIONS = new Set([
  '.tif',
  '.tiff',
  '.exr',
  '.dpx',
  '.bmp',
  '.tga',
  '.jp2',
  '.psd',
  '.cin',
]);

/**
 * What to do with numbered TIFF, EXR, DPX... frames: imported without "sequence", one is one-frame footage, so
 * "import it without sequence" (the remedy for a video) would give a still. Converted to PNG, they are a sequence.
 */
function otherImagesRemedy(path: string, ext: string): string {
  const named = isSequencePattern(path) ? { pattern: path, number: null } : patternOfFile(path);
  const pattern = basename(named?.pattern ?? path);
  const first = named?.number ?? 'FIRST';
  return `Convert the frames to PNG first, keeping their numbers (ffmpeg -start_number ${first} -i "${pattern}" -start_number ${first} "${pattern.slice(0, -ext.length)}.png"), and import the first PNG with sequence: true.`;
}

/** Whether `path` names an image file (PNG, JPEG, WebP, GIF, SVG): what an image sequence is made of. */
export function isStillName(path: string): boolean {
  return STILL_EXTENSIONS.has(extname(path).toLowerCase());
}
export const DEFAULT_SEQUENCE_RATE = 30;

export interface Imported {
  path: string;
  width: number;
  height: number;
  format: string;
  media: FootageMedia;
}

const stillMedia = (info: ImageInfo): FootageMedia => ({
  kind: 'still',
  duration: null,
  frameRate: null,
  frameCount: null,
  variableFrameRate: false,
  pixelAspect: 1,
  alpha: info.alpha ?? false,
  rotation: info.rotation ?? 0,
  codec: info.format,
  sequence: null,
  audio: null,
});

async function probeStill(ctx: Probing, path: string): Promise<ImageInfo> {
  let info: ImageInfo;
  try {
    info = await ctx.ports.probeImage(path);
  } catch (err) {
    throw err instanceof EngineError ? err : fsError(err, path, 'import');
  }
  if (!STILL_FORMATS.includes(info.format)) {
    throw new EngineError(
      'unsupported_format',
      `"${basename(path)}" is ${info.format}; image formats are ${STILL_FORMATS.join(', ')}.`,
      'Convert it to PNG, JPEG, WebP, GIF or SVG first.',
    );
  }
  return info;
}

/** Probes a video or audio file with ffprobe, through a descriptor the ports opened (and checked). */
async function probeMedia(ctx: Probing, path: string): Promise<Imported> {
  const file = await ctx.ports.openMedia(path).catch((err: unknown) => {
    throw err instanceof EngineError ? err : fsError(err, path, 'import');
  });
  try {
    const { warnings, ...probe } = await ctx.ports.probeMedia(file, path);
    for (const warning of warnings ?? []) ctx.warn?.(warning);
    return { path, ...probe };
  } finally {
    await file.close();
  }
}

async function importSequence(ctx: Probing, path: string, frameRate: number): Promise<Imported> {
  const ext = extname(path).toLowerCase();
  if (!STILL_EXTENSIONS.has(ext))
    throw new EngineError(
      'bad_argument',
      `An image sequence is a run of numbered image files (PNG, JPEG, WebP, GIF, SVG); "${basename(path)}" is not one.`,
      OTHER_IMAGE_EXTENSIONS.has(ext)
        ? otherImagesRemedy(path, ext)
        : `Import it without "sequence": a video or sound file plays by itself.`,
    );
  const named = isSequencePattern(path) ? { pattern: path, number: null } : patternOfFile(path);
  // A name with a literal % ("50%_0001.png") has a number, but its pattern would read the % as a printf field:
  // it was told it had no frame number, which sent people looking for a number that is there.
  if (!named && basename(path).includes('%') && /\d/.test(basename(path)))
    throw new EngineError(
      'bad_argument',
      `"${basename(path)}" holds a % sign, which a sequence's pattern would read as a printf field (%d), so its frames cannot be read as an image sequence.`,
      'Rename the frames without the % sign (e.g. 50pc_0001.png), keeping their numbers, and import the first with sequence: true.',
    );
  if (!named) {
    throw new EngineError(
      'bad_argument',
      `"${basename(path)}" has no frame number in its name, so it cannot start an image sequence.`,
      'Pass a printf pattern such as /dir/frame_%04d.png, or the first file of a run of numbered files.',
    );
  }
  // A frame whose path leads outside the roots (a link out of a render folder) ends the run there, as a missing
  // frame does, and is named; the whole import was refused. When no frame is left at all, the refusal stands.
  const refused = new Map<string, EngineError>();
  // A frame is a regular file: a folder or FIFO named like the next frame ends the run (ffmpeg cannot read it).
  const exists = (p: string) =>
    ctx.ports.isFile(p).catch((err: unknown) => {
      if (!(err instanceof EngineError) || err.code !== 'path_outside_roots') throw err;
      refused.set(p, err);
      return false;
    });
  const run = await findRun(named.pattern, named.number, exists);
  if (!run) {
    const [refusal] = refused.values();
    if (refusal) throw refusal;
    if (named.number !== null) throw await missingStartFrame(named.pattern, named.number, exists);
    throw await noFirstFrame(named.pattern, exists);
  }
  const stoppedAt = sequenceFrame(named.pattern, run.last + 1);
  const stops = `The sequence stops at frame ${run.last} (${basename(sequenceFrame(named.pattern, run.last))})`;
  const outside = refused.get(stoppedAt);
  if (outside)
    ctx.warn?.(
      `${stops}: ${basename(stoppedAt)} leads outside the roots this session may read, so the frames from it on are left out. ${outside.remediation}`,
    );
  const after = outside ? null : await framesAfterGap(named.pattern, run.last, exists);
  if (after)
    ctx.warn?.(
      `${stops}: ${basename(stoppedAt)}${after.first > run.last + 2 ? ` to ${basename(sequenceFrame(named.pattern, after.first - 1))}` : ''} ${after.first > run.last + 2 ? 'are' : 'is'} missing, so frames ${after.first} to ${after.last} after the gap are left out. Fill the gap and relink (footage.relink) to get them all, or import from ${basename(sequenceFrame(named.pattern, after.first))} for the frames after it.`,
    );
  const first = sequenceFrame(named.pattern, run.first);
  const info = await probeStill(ctx, first);
  const frameCount = run.last - run.first + 1;
  return {
    path: first,
    width: info.width,
    height: info.height,
    format: info.format,
    media: {
      ...stillMedia(info),
      kind: 'sequence',
      duration: frameCount / frameRate,
      frameRate,
      frameCount,
      sequence: { pattern: named.pattern, first: run.first, last: run.last },
    },
  };
}

function assertMovingSize(imported: Imported): Imported {
  const kind = imported.media?.kind;
  if (
    (kind !== 'video' && kind !== 'sequence') ||
    Math.max(imported.width, imported.height) <= MAX_MOVING_SIDE
  )
    return imported;
  throw new EngineError(
    'unsupported_format',
    `"${basename(imported.path)}" is ${imported.width}x${imported.height}; moving footage (video, animated GIF, image sequences) is at most ${MAX_MOVING_SIDE} pixels on a side.`,
    `Scale it down first, e.g. ffmpeg -i "${basename(imported.path)}" -vf scale=${MAX_MOVING_SIDE}:${MAX_MOVING_SIDE}:force_original_aspect_ratio=decrease:force_divisible_by=2 smaller.mov (a still image of any size imports as it is).`,
  );
}

function assertFrameRate(imported: Imported): Imported {
  const rate = imported.media?.frameRate;
  if (imported.media?.kind !== 'video' || !rate || rate <= MAX_FOOTAGE_FRAME_RATE) return imported;
  const name = basename(imported.path);
  throw new EngineError(
    'unsupported_format',
    `"${name}" runs at ${+rate.toFixed(3)} fps; video footage is at most ${MAX_FOOTAGE_FRAME_RATE} fps (each frame drawn far from the last one read decodes from a key frame, which at such a rate takes minutes a frame).`,
    `Give it a playable rate first, e.g. ffmpeg -i "${name}" -vf fps=60 -c:a copy retimed.mp4 (or, to keep every frame as slow motion, ffmpeg -r 60 -i "${name}" retimed.mp4), and import that.`,
  );
}

function assertSampleRate(imported: Imported): Imported {
  const media = imported.media;
  const streams = media?.audioStreams ?? (media?.audio ? [media.audio] : []);
  const low = streams.find((s) => s.sampleRate < MIN_SAMPLE_RATE);
  if (low) throw lowSampleRate(basename(imported.path), low.sampleRate, 'import that');
  return imported;
}

/** What `path` holds, as a footage item's fields. */
export async function importMedia(
  ctx: Probing,
  path: string,
  options: { sequence: boolean; frameRate: number | undefined },
): Promise<Imported> {
  return assertSampleRate(assertFrameRate(assertMovingSize(await importAny(ctx, path, options))));
}

async function importAny(
  ctx: Probing,
  path: string,
  options: { sequence: boolean; frameRate: number | undefined },
): Promise<Imported> {
  // A name with a printf field is a pattern, unless a file of that very name exists (clip%d.mp4 is a clip).
  // Only an image's name is a pattern: a missing clip%d.mp4 is a clip that is not there (no_such_file), where
  // it was refused as "not an image sequence", told to drop a `sequence` it had not been given.
  const ext = extname(path).toLowerCase();
  // An agent building an edit imports its own project file: ffprobe read a large one as TED captions (JSON)
  // and a small one as "Invalid data", and the remedy (import a video) left it guessing what it had done. Only
  // a file that does not import as media is told so: ffprobe reads by content, and a clip named .ecproj is a clip.
  if (ext === '.ecproj')
    return importByContent(ctx, path, options, ext).catch((err: unknown) => {
      if (!(err instanceof EngineError) || err.code !== 'unsupported_format') throw err;
      throw new EngineError(
        'unsupported_format',
        `"${basename(path)}" is an EffectCraft project file, not footage.`,
        'Open it with project.open (it replaces the open project), or import the media files its compositions show.',
      );
    });
  return importByContent(ctx, path, options, ext);
}

async function importByContent(
  ctx: Probing,
  path: string,
  options: { sequence: boolean; frameRate: number | undefined },
  ext: string,
): Promise<Imported> {
  const imageName = STILL_EXTENSIONS.has(ext) || OTHER_IMAGE_EXTENSIONS.has(ext);
  if (options.sequence || (imageName && isSequencePattern(path) && !(await ctx.ports.exists(path))))
    return importSequence(ctx, path, options.frameRate ?? DEFAULT_SEQUENCE_RATE);
  if (STILL_EXTENSIONS.has(ext)) {
    const info = await probeStill(ctx, path);
    const frames = info.frames ?? 1;
    // An animated GIF or PNG (APNG) plays as video (ffprobe); without ffprobe it still imports, as its first frame.
    if ((info.format === 'gif' || info.format === 'png') && frames > 1) {
      const video = await probeMedia(ctx, path).catch((err: unknown) => {
        if (err instanceof EngineError && err.code === 'missing_dependency') return null;
        throw err;
      });
      if (video) return video;
    }
    // ffmpeg's WebP decoder (5.1 and the versions since that we know of) reads no animation, and sharp's pages
    // are not footage frames: it stays its first frame, and the user is told so rather than left to find out.
    if (info.format === 'webp' && frames > 1)
      ctx.warn?.(
        `"${basename(path)}" is an animated WebP of ${frames} frames; only its first frame is shown (animated WebP is read as a still image). To play it, import it as a video or an image sequence exported from its source, or dump its frames (libwebp's anim_dump -folder frames "${basename(path)}") and import the first, frames/dump_0000.png, with sequence: true.`,
      );
    return { path, width: info.width, height: info.height, format: info.format, media: stillMedia(info) };
  }
  return probeMedia(ctx, path);
}
