/**
 * A layer's level (dB, keyframed) as an ffmpeg expression of the item's time `t`, for `volume=...:eval=frame`.
 * The expression is a flat sum (no nested ifs, so no depth limit however many keyframes): the value before the
 * first keyframe, plus one term per piece, each `clip((L - t0) / (t1 - t0), 0, 1) * (v1 - v0)` (a ramp that
 * is 0 before the piece and its whole change after it) or `gte(L, t1) * (v1 - v0)` for a hold. Linear pieces
 * are exact; eased (bezier) pieces are followed through points of valueAt, the one keyframe evaluator.
 */
import { valueAt, type NumberProp } from '../../engine/index.js';
import type { LevelTrack } from './clips.js';
import { MIX_RATE } from './mix-rate.js';

/** Points per eased piece: a fade's curve within a fraction of a dB. */
const EASED_STEPS = 16;

/** `n` for an expression: plain decimal, enough digits for sample-exact times. */
const num = (n: number) => (Object.is(n, -0) ? '0' : Number(n.toFixed(9)).toString());

/** The dB of `level` as an expression of `L` (its layer time, an expression itself). */
export function levelExpression(level: NumberProp, L: string): string {
  const keys = level.keyframes;
  if (!keys.length) return num(level.value);
  const terms = [num(keys[0]!.value)];
  for (let i = 0; i + 1 < keys.length; i++) {
    const [k0, k1] = [keys[i]!, keys[i + 1]!];
    if (k1.value === k0.value && k0.interpolation !== 'bezier') continue;
    if (k0.interpolation === 'hold' || k1.time <= k0.time) {
      terms.push(`gte(${L},${num(k1.time)})*(${num(k1.value - k0.value)})`);
      continue;
    }
    const linear = k0.interpolation === 'linear' && k1.interpolation === 'linear';
    const steps = linear ? 1 : EASED_STEPS;
    let [t0, v0] = [k0.time, k0.value];
    for (let s = 1; s <= steps; s++) {
      const t1 = s === steps ? k1.time : k0.time + ((k1.time - k0.time) * s) / steps;
      const v1 = s === steps ? k1.value : valueAt(level, t1);
      if (v1 !== v0) terms.push(`clip((${L}-${num(t0)})/${num(t1 - t0)},0,1)*(${num(v1 - v0)})`);
      [t0, v0] = [t1, v1];
    }
  }
  return terms.join('+');
}

/**
 * How long the audio frames are that the gain is evaluated for (graph.ts cuts the clip's sound into them), and
 * the time of a frame that is evaluated: its middle (`t` is its start). Until 2026-12-07 frames were 10 ms and
 * the level was taken at their start: a fast fade lagged by up to 4 dB (40 dB in 100 ms) and a hold key was
 * heard up to 10 ms late; 1 ms frames taken at their middle follow a fade within a tenth of its change per
 * millisecond and a key within half a millisecond. They cost 2 s of one core per 10 minutes of a keyframed
 * layer (0.5 s at 10 ms), only on layers with keyframed levels; exact per-sample gain (ffmpeg's `aevalsrc`
 * multiplied in) cost 5.7 s.
 */
export const GAIN_FRAME_SAMPLES = 48;
const T = `(t+${num(GAIN_FRAME_SAMPLES / 2 / MIX_RATE)})`;

/** A track's layer time as an expression of the frame's time: shifted, or piecewise linear over its windows. */
function layerTime(track: LevelTrack): string {
  if (!track.windows) return `(${T}-(${num(track.shift)}))`;
  const pieces = track.windows.map(
    (w) => `gte(${T},${num(w.lo)})*lt(${T},${num(w.hi)})*(${num(w.l0)}+(${num(w.k)})*(${T}-(${num(w.lo)})))`,
  );
  return `(${pieces.join('+')})`;
}

/**
 * The gain of a clip whose levels are `tracks`, for ffmpeg's volume filter: a constant (`-6dB`) when no
 * track is keyframed, else an expression of `t` (the item's time) evaluated per audio frame.
 */
export function gainFilter(tracks: readonly LevelTrack[]): string | null {
  if (!tracks.length) return null;
  if (tracks.every((t) => !t.level.keyframes.length)) {
    const db = tracks.reduce((sum, t) => sum + t.level.value, 0);
    return db === 0 ? null : `volume=volume=${num(db)}dB`;
  }
  const sum = tracks.map((t) => `(${levelExpression(t.level, layerTime(t))})`).join('+');
  // Commas inside the expression would end the filter's options: the graph quotes it.
  return `volume=volume='pow(10,(${sum})/20)':eval=frame`;
}
