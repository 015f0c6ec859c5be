/** Frame <-> pixel mapping of the timeline's track area, shared by the ruler, the bars and the keyframes. */
import type { Composition } from '../../../engine/model.js';
import { frameCount } from '../state/doc.js';

export interface TimeScale {
  /** Pixels per frame. */
  pxPerFrame: number;
  /** Width of the whole composition in pixels. */
  width: number;
  frames: number;
  fps: number;
}

/** Zoom 1 fits the whole composition in `viewWidth`; larger zooms scroll. */
export function timeScale(comp: Composition, viewWidth: number, zoom: number): TimeScale {
  const frames = frameCount(comp);
  const pxPerFrame = (Math.max(100, viewWidth) / frames) * Math.max(1, zoom);
  return { pxPerFrame, width: pxPerFrame * frames, frames, fps: comp.frameRate };
}

export const frameX = (scale: TimeScale, frame: number) => frame * scale.pxPerFrame;
export const timeX = (scale: TimeScale, seconds: number) => seconds * scale.fps * scale.pxPerFrame;

/**
 * `seconds` moved by whole `frames`. A time on a frame lands exactly on the time the renderer gives that frame
 * (`frame / fps`): `seconds + frames / fps` in floating point can land just past it (1/24 + 7/24 is
 * 0.33333333333333337, frame 8 is at 0.3333333333333333), and a layer whose in point is there misses its first
 * frame. A time between frames keeps its offset.
 */
export function shiftByFrames(seconds: number, frames: number, fps: number): number {
  const at = seconds * fps;
  const frame = Math.round(at);
  return (Math.abs(at - frame) < 1e-6 ? frame + frames : at + frames) / fps;
}

/** The frame under an x offset in the track area (clamped to the composition). */
export function frameAtX(scale: TimeScale, x: number): number {
  return Math.max(0, Math.min(scale.frames - 1, Math.round(x / scale.pxPerFrame)));
}

/** Tick spacing in frames so that labels stay about 60 px apart. */
export function tickStep(scale: TimeScale): number {
  const candidates = [1, 2, 5, 10, 15, 30, 60, 150, 300, 600, 1800, 3600];
  const fps = Math.round(scale.fps);
  const steps = candidates.map((c) => (c >= 30 ? Math.round((c / 30) * fps) : c));
  return steps.find((s) => s * scale.pxPerFrame >= 60) ?? steps[steps.length - 1]!;
}

/** A tick's label: whole seconds as `2s`, other ticks as seconds and frames (`1s15f`), as After Effects counts. */
export function tickLabel(frame: number, fps: number): string {
  const seconds = Math.floor(frame / fps);
  const rest = frame - seconds * fps;
  if (!rest) return `${seconds}s`;
  return seconds ? `${seconds}s${rest}f` : `${rest}f`;
}
