/**
 * Time mapping, as After Effects does it: which moment of a footage item (video, image sequence, audio) a layer
 * shows at a moment of its composition. One pure function for the picture and the sound, so they cannot drift.
 *
 *   layer time   = comp time - layer.startTime
 *   footage time = freezeAt                                   (freeze frame)
 *                | layer time * speed                        (speed > 0; 2 = twice as fast, 0.5 = half)
 *                | last + layer time * speed                 (speed < 0: reversed, from the last frame's time)
 *   then, with loop, wrapped into [0, duration); without, nothing outside [0, duration).
 *
 * The footage frame for a footage time is found by the frames' own timestamps (variable frame rate included),
 * never by counting frames: the nearest frame by default, or the two frames around it for frame blending.
 */

/** How a layer maps its composition's time to its footage's time. Absent on a layer: {speed 1, no loop, no freeze}. */
export interface TimeMap {
  /** Playback speed: 1 normal, 2 twice as fast, 0.5 half, -1 reversed. Never 0. */
  speed: number;
  /** Repeat the footage for as long as the layer lasts. */
  loop: boolean;
  /** Show this one moment of the footage (seconds) for the whole layer; null: off. */
  freezeAt: number | null;
  /** Frame mix: a footage time between two frames shows both, weighted by time (absent or false: the nearest). */
  frameBlending?: boolean;
}

/**
 * Layers whose source has a time of its own: footage (video, sequences, sound) and precomps. Only they can be
 * retimed, and only they can sound.
 */
export function hasSourceTime(layer: { source: { kind: string } }): boolean {
  return layer.source.kind === 'footage' || layer.source.kind === 'precomp';
}

export const DEFAULT_TIME_MAP: TimeMap = { speed: 1, loop: false, freezeAt: null };

/** Tolerance for times computed from frame numbers (n / rate is rarely exact in binary). */
const EPS = 1e-9;

/**
 * The footage time a layer shows at `compTime`, or null when it shows nothing of the footage then (before its
 * start or after its end without loop). `duration` is the footage's length in seconds. `frameDuration` is how
 * long its last frame lasts (pictures; 0 for sound): reversed footage starts at the last frame's own time, so a
 * reversed N-frame clip shows frames N-1, N-2, ... 0 on consecutive comp frames at the same rate.
 */
export function footageTime(
  layer: { startTime: number; time?: TimeMap },
  compTime: number,
  duration: number,
  frameDuration = 0,
): number | null {
  const map = layer.time ?? DEFAULT_TIME_MAP;
  if (map.freezeAt !== null) return Math.min(Math.max(map.freezeAt, 0), Math.max(0, duration - EPS));
  const layerTime = compTime - layer.startTime;
  const last = Math.max(0, duration - frameDuration);
  let t = map.speed >= 0 ? layerTime * map.speed : last + layerTime * map.speed;
  // Reversed sound starts at its very end, which is excluded like every end.
  if (map.speed < 0 && frameDuration === 0) t -= EPS;
  if (map.loop && duration > 0) {
    t = ((t % duration) + duration) % duration;
    // A wrap that rounding lands on the end itself is the start of the next pass.
    if (t >= duration - EPS / 2) t = 0;
  }
  if (t < -EPS / 2 || t >= duration - EPS / 2) return null;
  return Math.max(0, t);
}

/**
 * The index of the frame whose timestamp is nearest to `time` (ties go to the earlier frame). `timestamps` are
 * the frames' presentation times in seconds, ascending (from the probe), so variable frame rates map right.
 * `period`: a looping layer's clip length; its next pass's first frame, at that time, is a neighbour of the last
 * frame too (without it a 10 fps loop in a 30 fps comp showed its last frame 4 comp frames and its first 2).
 */
export function nearestFrame(timestamps: ArrayLike<number>, time: number, period?: number): number {
  const found = nearestInPass(timestamps, time);
  const last = timestamps.length - 1;
  if (period !== undefined && found === last && period - time < time - timestamps[last]! - EPS) return 0;
  return found;
}

function nearestInPass(timestamps: ArrayLike<number>, time: number): number {
  const n = timestamps.length;
  if (n === 0) throw new RangeError('footage without frames');
  let lo = 0;
  let hi = n - 1;
  // The last frame whose timestamp is <= time (binary search), then the nearer of it and the next.
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (timestamps[mid]! <= time + EPS) lo = mid;
    else hi = mid - 1;
  }
  if (lo + 1 < n && timestamps[lo + 1]! - time < time - timestamps[lo]! - EPS) return lo + 1;
  return lo;
}

/**
 * For frame blending: the frames before and after `time` and the weight of the later one (0..1). `period`: as
 * nearestFrame's; past a looping clip's last frame, the later one is the next pass's first.
 */
export function blendFrames(
  timestamps: ArrayLike<number>,
  time: number,
  period?: number,
): { a: number; b: number; weight: number } {
  const n = timestamps.length;
  if (n === 0) throw new RangeError('footage without frames');
  const last = timestamps[n - 1]!;
  if (period !== undefined && n > 1 && time > last + EPS && period > last + EPS) {
    const weight = Math.min(1, (time - last) / (period - last));
    return { a: n - 1, b: 0, weight };
  }
  let a = 0;
  while (a + 1 < n && timestamps[a + 1]! <= time + EPS) a++;
  const b = Math.min(a + 1, n - 1);
  const span = timestamps[b]! - timestamps[a]!;
  const weight = span > 0 ? Math.min(1, Math.max(0, (time - timestamps[a]!) / span)) : 0;
  return weight < EPS ? { a, b: a, weight: 0 } : { a, b, weight };
}

/** Timestamps of a constant-rate source: frame i at i / rate. */
export function constantTimestamps(frameCount: number, frameRate: number): Float64Array {
  const out = new Float64Array(frameCount);
  for (let i = 0; i < frameCount; i++) out[i] = i / frameRate;
  return out;
}
