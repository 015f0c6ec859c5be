/**
 * A mix's files opened through the engine's ports (openMedia: confined, checked at the open, never through a
 * link), for ffmpeg to read as open files (`/proc/<pid>/fd/N`), never by path again; and each checked to be the
 * file its footage item recorded (sound-unchanged.ts) when ffprobe is there.
 */
import { EngineError, type EnginePorts, type FootageItem, type Project } from '../../engine/index.js';
import { footageFailure } from '../media/missing-footage.js';
import { probeMedia } from '../media/probe.js';
import type { AudioMix } from './clips.js';
import { checkSoundUnchanged, playedStreams } from './sound-unchanged.js';

/** A file left out of a preview's mix: why (a missing file's `no_such_file`, a changed one's `unsupported_format`). */
export interface MixWarning {
  code: string;
  message: string;
}

/**
 * `mix` with every clip's path replaced by its file opened through `ports`; `keep` gets each file's close. A
 * missing file fails as its footage (`fail`, a render), or its clips are left out with a warning naming it
 * (`skip`, a preview: as a missing picture is a placeholder there). A changed file is the same, except that a
 * render's check runs on while it starts: `checked` rejects then (a preview's has settled before this returns).
 * `ffprobe`: null skips the check.
 */
export async function openMix(
  doc: Project,
  mix: AudioMix,
  ports: EnginePorts,
  keep: (close: () => Promise<void>) => void,
  missing: 'fail' | 'skip',
  ffprobe: string | null,
): Promise<{ mix: AudioMix; warnings: MixWarning[]; checked: Promise<void> }> {
  const opened = new Map<string, string>();
  const warnings: MixWarning[] = [];
  // Each check settles to its error or null, never rejects: a later file that fails to open ends this before
  // they are awaited, and closes the files they read (their failures are then nobody's to report).
  const checks: Promise<unknown>[] = [];
  for (const [path, streams] of playedStreams(mix)) {
    // Named as the footage it is, as a missing picture is (the person knows the item, not only the path).
    const item = doc.items.find((i): i is FootageItem => i.type === 'footage' && i.path === path);
    const file = await ports.openMedia(path).catch((err: unknown) => {
      const failure = footageFailure(item, path, err, 'read sound from');
      // Only a missing file is left out of a preview; anything else (outside the roots) fails it.
      if (missing === 'fail' || failure.code !== 'no_such_file') throw failure;
      warnings.push({ code: failure.code, message: `${failure.message} Its sound is left out.` });
      return null;
    });
    if (!file) continue;
    keep(() => file.close());
    opened.set(path, file.childPath);
    if (!ffprobe || !item) continue;
    const probe = (o: { countPackets: boolean }) => probeMedia(ffprobe, file.childPath, path, o);
    checks.push(
      checkSoundUnchanged(probe, item, streams).then(
        () => null,
        (err: unknown) => {
          if (missing === 'fail') return err;
          const code = err instanceof EngineError ? err.code : 'unsupported_format';
          warnings.push({ code, message: `${(err as Error).message} Its sound is left out.` });
          opened.delete(path);
          return null;
        },
      ),
    );
  }
  // Every file is looked at in parallel; a render fails on the first change found.
  const checked = Promise.all(checks).then((errors) => {
    const failed = errors.find((e) => e !== null);
    if (failed) throw failed;
  });
  // Awaited by the render's start; a render stopped before that must not leave it unhandled.
  checked.catch(() => undefined);
  if (missing === 'skip') await checked;
  const clips = mix.clips.flatMap((c) => {
    const path = opened.get(c.path);
    return path === undefined ? [] : [{ ...c, path, shown: c.path }];
  });
  return { mix: { ...mix, clips }, warnings, checked };
}
