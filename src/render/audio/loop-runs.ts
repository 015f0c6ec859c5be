/**
 * A looping sound's repeats, found among a clip's segments so the graph can play them from one kept copy.
 *
 * Why: each segment is a branch of the mix's graph, delayed to its place and summed (amix). A 3 s music bed
 * looped under half an hour is 600 branches, each decoding the same piece and each summed from time 0: the
 * mix's cost grew with the square of its length (half an hour took six minutes). A run of identical
 * back-to-back pieces is instead one piece held by `aloop` and repeated, in groups of RUN_GROUP repeats whose
 * lengths are cut to the exact sample: a piece is a whole number of samples, its period in general is not, and
 * a group's cut brings the repeats back onto the timeline's own samples (within half a sample) before the
 * difference adds up.
 *
 * A loop's period can be longer than its piece: a clip whose sound ends a few milliseconds before its picture
 * (AAC and Opus streams usually do) loops its picture, and each repeat of the sound is followed by silence until
 * the next. The held piece is then padded with that silence; without it such clips found no run at all, a branch
 * per repeat (a 2 s clip looped for 10 minutes took 28 s to mix instead of under one, and an hour was refused).
 */
import type { AudioSegment } from './clips.js';
import { MIX_RATE } from './mix-rate.js';

/** Fewer repeats than this stay segments of their own: too few to be worth a group. */
export const MIN_RUN = 4;
/** Repeats per group: the drift within one is at most half a sample per repeat (8 samples, 0.17 ms). */
export const RUN_GROUP = 16;

/**
 * `count` plays of `piece`, one every `period` seconds from `piece.at` (silence between when the period is longer),
 * then `tail` seconds of its start (a loop cut short).
 */
export interface LoopRun {
  piece: AudioSegment;
  count: number;
  period: number;
  tail: number;
}

export type Branch = { segment: AudioSegment } | { run: LoopRun };

const EPS = 1e-9;
const near = (a: number, b: number) => Math.abs(a - b) < EPS * Math.max(1, Math.abs(a), Math.abs(b));

const samePiece = (a: AudioSegment, b: AudioSegment) =>
  near(a.from, b.from) && near(a.length, b.length) && a.speed === b.speed && a.reversed === b.reversed;

/** `b` starts `period` seconds after `a`. */
const follows = (a: AudioSegment, b: AudioSegment, period: number) => Math.abs(b.at - (a.at + period)) < 1e-6;

/** The period of a run starting with `piece` and `next`: the distance between their starts, if `piece` fits in it. */
const periodOf = (piece: AudioSegment, next: AudioSegment | undefined): number =>
  next && next.at - piece.at >= piece.length - 1e-6
    ? Math.max(piece.length, next.at - piece.at)
    : piece.length;

/** Where a piece ends in footage time when played in its direction: its start, cut short, is the same. */
const playStart = (s: AudioSegment) => (s.reversed ? s.from + s.length * s.speed : s.from);

/** `s` is how `piece` begins, shorter: the last repeat of a loop the layer's out point cuts. */
const beginsLike = (s: AudioSegment, piece: AudioSegment) =>
  s.speed === piece.speed &&
  s.reversed === piece.reversed &&
  s.length < piece.length &&
  near(playStart(s), playStart(piece));

/** The clip's segments in time order, runs of at least MIN_RUN identical evenly spaced repeats taken together. */
export function loopRuns(segments: readonly AudioSegment[]): Branch[] {
  const sorted = [...segments].sort((a, b) => a.at - b.at);
  const out: Branch[] = [];
  for (let i = 0; i < sorted.length;) {
    const piece = sorted[i]!;
    const period = periodOf(piece, sorted[i + 1]);
    let j = i;
    while (
      j + 1 < sorted.length &&
      samePiece(sorted[j + 1]!, piece) &&
      follows(sorted[j]!, sorted[j + 1]!, period)
    )
      j++;
    const count = j - i + 1;
    if (count < MIN_RUN) {
      out.push({ segment: piece });
      i++;
      continue;
    }
    const next = sorted[j + 1];
    const tail = next && follows(sorted[j]!, next, period) && beginsLike(next, piece) ? next.length : 0;
    out.push({ run: { piece, count, period, tail } });
    i = j + 1 + (tail > 0 ? 1 : 0);
  }
  return out;
}

/** Seconds from a run's start to the end of its last sound (its last repeat's, or its tail's). */
export const runLength = (run: LoopRun): number =>
  run.tail > 0 ? run.count * run.period + run.tail : (run.count - 1) * run.period + run.piece.length;

/** The groups of a run, each [start, end) in seconds from the run's start: RUN_GROUP repeats (the last, the rest). */
export function runGroups(run: LoopRun): [number, number][] {
  const total = runLength(run);
  // A period of whole samples never drifts (every repeat starts on the timeline's own sample), so it needs no
  // group's cut: the run is one group. Groups cost: ffmpeg's work per audio frame grows with the graph's
  // branches, and each holds its piece (4 h of a 1 s loop to WAV: 900 groups took 330 s and 556 MB; one, 62 s
  // and 121 MB, the same samples).
  const period = run.period * MIX_RATE;
  if (Math.abs(period - Math.round(period)) < 1e-6) return [[0, total]];
  const groups: [number, number][] = [];
  for (let k = 0; k * run.period < total - EPS; k += RUN_GROUP)
    groups.push([k * run.period, Math.min(total, (k + RUN_GROUP) * run.period)]);
  return groups;
}

/** The graph's branches `branches` take: one per segment, one per group of a run. */
export const branchWidth = (branches: readonly Branch[]): number =>
  branches.reduce((n, b) => n + ('run' in b ? runGroups(b.run).length : 1), 0);
