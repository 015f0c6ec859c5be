/**
 * Numbered image sequences: a printf pattern (`/dir/f_%04d.png`), or the first file of a run of numbered files
 * (`/dir/f_0001.png`), turned into the pattern and the numbers of its first and last frames. Pure: the files
 * are looked for through the `exists` the caller passes (the engine's ports, so confinement applies).
 */
import { basename, dirname, join } from 'node:path';
import { EngineError } from './errors.js';
import { MAX_MOVING_SIDE } from './footage-limits.js';
import { LIMITS } from './limits.js';
import type { FootageItem } from './model.js';

/** `%d` or `%0Nd`, the only printf forms a sequence pattern may hold (once). */
const PRINTF = /%(0(\d{1,2}))?d/;

/** The longest sequence imported (and that a project file may declare). */
export const MAX_SEQUENCE_FRAMES = LIMITS.sequenceFrames.max;

export function isSequencePattern(path: string): boolean {
  return PRINTF.test(basename(path));
}

/** The file of frame `n` of `pattern` (the field is in the file's name; a folder's `%d` is a folder's name). */
export function sequenceFrame(pattern: string, n: number): string {
  const name = basename(pattern).replace(PRINTF, (_m, _pad, width: string | undefined) =>
    String(n).padStart(width ? Number(width) : 0, '0'),
  );
  return join(dirname(pattern), name);
}

/** The pattern and number of a numbered file (the last run of digits in its name), or null without digits. */
export function patternOfFile(path: string): { pattern: string; number: number } | null {
  const name = basename(path);
  // A literal % would be read as a printf field by every reader of the pattern.
  if (name.includes('%')) return null;
  const m = /^(.*?)(\d+)(\D*)$/.exec(name);
  if (!m) return null;
  const [, head, digits, tail] = m as unknown as [string, string, string, string];
  // Leading zeros mean fixed width (f_0001); otherwise the numbers grow in width (f_1 ... f_10).
  const field = digits.length > 1 && digits.startsWith('0') ? `%0${digits.length}d` : '%d';
  return { pattern: join(dirname(path), `${head}${field}${tail}`), number: Number(digits) };
}

/**
 * The first and last frame numbers of the run starting at `first` (or, when null, at the first of 0..4 that
 * exists, as ffmpeg looks), or null when no frame exists.
 */
export async function findRun(
  pattern: string,
  first: number | null,
  exists: (path: string) => Promise<boolean>,
): Promise<{ first: number; last: number } | null> {
  let start = first;
  if (start === null) {
    for (let n = 0; n <= 4 && start === null; n++) if (await exists(sequenceFrame(pattern, n))) start = n;
    if (start === null) return null;
  } else if (!(await exists(sequenceFrame(pattern, start)))) return null;
  let last = start;
  while (last - start + 1 < MAX_SEQUENCE_FRAMES && (await exists(sequenceFrame(pattern, last + 1)))) last++;
  return { first: start, last };
}

/**
 * How far past a run's last frame an import looks for more frames (a dropped frame or a short gap in a render
 * folder): numbers it tries, each one file check.
 */
export const GAP_LOOKAHEAD = 100;

/**
 * The run of frames after a gap following `last` (the first number found within GAP_LOOKAHEAD, and where its
 * run ends), or null when none is there: frames a run that stopped at `last` leaves out.
 */
export async function framesAfterGap(
  pattern: string,
  last: number,
  exists: (path: string) => Promise<boolean>,
): Promise<{ first: number; last: number } | null> {
  // A run that stopped at the frame limit stopped with its next frame there: no gap.
  if (await exists(sequenceFrame(pattern, last + 1))) return null;
  for (let n = last + 2; n <= last + 1 + GAP_LOOKAHEAD; n++)
    if (await exists(sequenceFrame(pattern, n))) return findRun(pattern, n, exists);
  return null;
}

/**
 * The run of frames before `n` (the last number found within GAP_LOOKAHEAD below it, and where its run starts),
 * or null when none is there.
 */
export async function framesBeforeGap(
  pattern: string,
  n: number,
  exists: (path: string) => Promise<boolean>,
): Promise<{ first: number; last: number } | null> {
  for (let last = n - 1; last >= Math.max(0, n - GAP_LOOKAHEAD); last--) {
    if (!(await exists(sequenceFrame(pattern, last)))) continue;
    let first = last;
    while (
      first > 0 &&
      last - first + 1 < MAX_SEQUENCE_FRAMES &&
      (await exists(sequenceFrame(pattern, first - 1)))
    )
      first--;
    return { first, last };
  }
  return null;
}

/**
 * The error for a sequence imported by a file that is not there (`n`, its number): that file is named, with the
 * runs of frames found on either side of it (a render folder with a dropped frame, the wrong one picked), so the
 * remedy can say which file to import from instead.
 */
export async function missingStartFrame(
  pattern: string,
  n: number,
  exists: (path: string) => Promise<boolean>,
): Promise<EngineError> {
  const before = await framesBeforeGap(pattern, n, exists);
  const after = await framesAfterGap(pattern, n - 1, exists);
  const name = (k: number) => basename(sequenceFrame(pattern, k));
  const span = (r: { first: number; last: number }) =>
    r.first === r.last
      ? `frame ${r.first} (${name(r.first)})`
      : `frames ${r.first} to ${r.last} (${name(r.first)} to ${name(r.last)})`;
  const found = [after && `${span(after)} after it`, before && `${span(before)} before it`].filter(Boolean);
  const numbers = (r: { first: number; last: number }) =>
    r.first === r.last ? `frame ${r.first}` : `frames ${r.first} to ${r.last}`;
  const from = [after, before].flatMap((r) => (r ? [`from ${name(r.first)} (${numbers(r)})`] : []));
  return new EngineError(
    'no_such_file',
    `${name(n)}, the frame the sequence "${basename(pattern)}" was to start from, does not exist; ${
      found.length
        ? `the folder has ${found.join(' and ')}.`
        : `no frame is within ${GAP_LOOKAHEAD} numbers of it.`
    }`,
    from.length
      ? `Put ${name(n)} back, or import the sequence ${from.join(' or ')} with sequence: true.`
      : 'Check the folder and the file name (its number is the frame the sequence starts from).',
  );
}

/**
 * The error for a pattern none of whose numbers 0 to 4 exists (where a pattern's first frame is looked for, as
 * ffmpeg looks): a run that starts just past them (a render from frame 5, a folder trimmed of its first frames) is
 * named with the file to import it from, instead of saying that no frame exists.
 */
export async function noFirstFrame(
  pattern: string,
  exists: (path: string) => Promise<boolean>,
): Promise<EngineError> {
  const later = await framesAfterGap(pattern, 3, exists);
  const tried = `No frame of the sequence "${pattern}" is numbered 0 to 4, where the first frame of a pattern is looked for`;
  if (!later)
    return new EngineError(
      'no_such_file',
      `${tried}, and none is within ${GAP_LOOKAHEAD} numbers after them.`,
      'Check the folder and the pattern (e.g. frame_%04d.png for frame_0001.png). A sequence numbered from elsewhere (1001, as VFX shots are) is imported by its first file: pass that file with sequence: true.',
    );
  const name = (k: number) => basename(sequenceFrame(pattern, k));
  const span =
    later.first === later.last
      ? `frame ${later.first} (${name(later.first)})`
      : `frames ${later.first} to ${later.last} (${name(later.first)} to ${name(later.last)})`;
  return new EngineError(
    'no_such_file',
    `${tried}; the folder has ${span}.`,
    `Import the sequence from its first file, ${sequenceFrame(pattern, later.first)}, with sequence: true.`,
  );
}

/**
 * Why frame `path` of sequence `item`, whose header says `width` x `height`, cannot be drawn, or null: larger than
 * moving footage may be (a project file may say anything), or of another size than the sequence's (drawn, it was
 * squeezed into that size and the render called done). The sequence's size is its first frame's at import: the
 * import reads that one header only (a sequence may be thousands of files), so a frame of another size may have
 * been so from the start, or re-exported since; the message claims neither.
 * One rule for the renderer, which reads each frame's header before decoding it, and `inspect --strict`.
 */
export function sequenceFrameProblem(
  item: Pick<FootageItem, 'id' | 'name' | 'path' | 'width' | 'height'>,
  path: string,
  width: number,
  height: number,
): EngineError | null {
  const frame = `Frame "${path}" of the image sequence "${item.name}" (${item.id}) is ${width}x${height}`;
  if (Math.max(width, height) > MAX_MOVING_SIDE)
    return new EngineError(
      'unsupported_format',
      `${frame}; moving footage is at most ${MAX_MOVING_SIDE} pixels on a side.`,
      'Scale the frames down and relink the footage to them (footage.relink).',
    );
  if (width !== item.width || height !== item.height)
    return new EngineError(
      'unsupported_format',
      `${frame}, but the sequence is ${item.width}x${item.height} (the size of its first frame, ${basename(item.path)}, when it was imported): all frames of a sequence must be the same size.`,
      `Re-export ${basename(path)} at ${item.width}x${item.height}. If every frame now has the new size (the sequence was re-exported), relink the footage to its first frame (footage.relink) so that it is probed again.`,
    );
  return null;
}
