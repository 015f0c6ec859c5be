/**
 * Whether a video file is still the one its footage item describes. The decoders trust the item's size (a
 * frame is width x height x 4 bytes of the pipe): a clip re-exported under the same name at another size, turned
 * or cut shorter would be read as garbage and rendered as if nothing were wrong. So the first decoder of a file
 * in a renderer reads its headers again (ffprobe without counting packets: tens of milliseconds) and compares.
 */
import { EngineError, MAX_MOVING_SIDE, type FootageItem } from '../../engine/core.js';
import type { MediaProbe } from '../../engine/ports.js';

/** Durations may differ this much (two frames, or 1%) between ffprobe versions and containers' rounding. */
function durationSlack(item: FootageItem): number {
  const media = item.media!;
  return Math.max(2 / (media.frameRate ?? 25), 0.01 * (media.duration ?? 0));
}

/** A clip in words; its frame rate only when `fps` is given (when the rate is what changed). */
const described = (
  width: number,
  height: number,
  duration: number | null,
  rotation: number,
  fps?: number | null,
): string =>
  `${width}x${height}${rotation ? ` turned ${rotation}°` : ''}, ${fps ? `${+fps.toFixed(3)} fps, ` : ''}${(duration ?? 0).toFixed(2)} s`;

/**
 * Frame rates differ: a clip re-exported at 15 fps under the name of a 30 fps one (same size and length) was
 * read with the old rate's frame times and rendered "done" in slow motion. 0.1% apart is the same rate (29.97).
 */
const otherRate = (a: number | null, b: number | null) =>
  a !== null && b !== null && Math.abs(a - b) > 1e-3 * Math.max(a, b);

const CHANGED_REMEDY =
  'Put the file back as it was, or relink the footage to it (footage.relink) so that it is probed again.';

/** Whether probed facts `now` are those `item` recorded. */
function matches(item: FootageItem, now: MediaProbe): boolean {
  const was = item.media!;
  return (
    now.media.kind === 'video' &&
    now.width === item.width &&
    now.height === item.height &&
    now.media.rotation === was.rotation &&
    !otherRate(now.media.frameRate, was.frameRate) &&
    Math.abs((now.media.duration ?? 0) - (was.duration ?? 0)) <= durationSlack(item)
  );
}

/**
 * What `differs` finds between a file and its footage item, looked at twice at most: its headers (ffprobe without
 * counting packets: tens of milliseconds), and only when they differ, again counting packets as the import did
 * (a file whose headers give no duration, a browser's MediaRecorder WebM, was timed then by its packets). null:
 * nothing differs. Shared by the video check (here) and the sound check (audio/sound-unchanged.ts).
 */
export async function differenceOnDisk<T>(
  look: (countPackets: boolean) => Promise<MediaProbe>,
  differs: (now: MediaProbe) => T | null,
): Promise<T | null> {
  if (differs(await look(false)) === null) return null;
  return differs(await look(true));
}

/** Throws unsupported_format naming what changed when the file at `input` is not what `item` recorded. */
export async function checkUnchanged(ffprobe: string, input: string, item: FootageItem): Promise<void> {
  const was = item.media!;
  // The import refuses larger clips; a project file written by hand may still declare one (and be right).
  refuseOverLimit(item, item.width, item.height);
  // Loaded here, not with this module: probe.ts parses with zod, which a render worker otherwise never loads
  // (a render's files are checked by the main thread, footage-input.ts).
  const { probeMedia } = await import('./probe.js');
  const look = (countPackets: boolean) =>
    probeMedia(ffprobe, input, item.path, { countPackets }).catch((err: unknown) => {
      // No longer media at all: the import's remedy (import another file) is not this footage's; relinking is.
      if (!(err instanceof EngineError) || err.code !== 'unsupported_format') throw err;
      throw new EngineError(
        'unsupported_format',
        `"${item.path}" has changed since it was imported: it was ${described(item.width, item.height, was.duration, was.rotation)}; now ${err.message.replace(/^./, (c) => c.toLowerCase())}`,
        CHANGED_REMEDY,
      );
    });
  const now = await differenceOnDisk(look, (probe) => (matches(item, probe) ? null : probe));
  if (!now) return;
  refuseOverLimit(item, now.width, now.height);
  throw new EngineError('unsupported_format', changeOf(item, now), CHANGED_REMEDY);
}

/**
 * How the file probed as `now` differs from the video `item` recorded ("... has changed since it was imported:
 * it was 1920x1080, 6.00 s; it is now 1280x720, 6.00 s."), or null when it is the same clip. For a caller that
 * has probed the file itself (the studio marks changed footage in its Project panel).
 */
export function footageChange(item: FootageItem, now: MediaProbe): string | null {
  if (item.media?.kind !== 'video' || matches(item, now)) return null;
  return changeOf(item, now);
}

function changeOf(item: FootageItem, now: MediaProbe): string {
  const was = item.media!;
  const rates = now.media.kind === 'video' && otherRate(now.media.frameRate, was.frameRate);
  const nowText =
    now.media.kind === 'video'
      ? described(
          now.width,
          now.height,
          now.media.duration,
          now.media.rotation,
          rates ? now.media.frameRate : null,
        )
      : `${now.media.kind === 'audio' ? 'sound only' : 'a still image'}`;
  return `"${item.path}" has changed since it was imported: it was ${described(item.width, item.height, was.duration, was.rotation, rates ? was.frameRate : null)}; it is now ${nowText}.`;
}

/** Throws when a clip of `item` (as its project says, or as its file is now) is larger than moving footage may be. */
function refuseOverLimit(item: FootageItem, width: number, height: number): void {
  if (Math.max(width, height) <= MAX_MOVING_SIDE) return;
  const says =
    width === item.width && height === item.height ? '' : ` (the project says ${item.width}x${item.height})`;
  throw new EngineError(
    'unsupported_format',
    `"${item.path}" is ${width}x${height}${says}; video footage is at most ${MAX_MOVING_SIDE} pixels on a side.`,
    'Scale the clip down (ffmpeg -vf scale=...) and relink the footage to it (footage.relink).',
  );
}
