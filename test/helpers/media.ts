/**
 * Test media generated with ffmpeg (no binary fixtures): clips whose frame N is a flat colour that encodes N,
 * so a decoded pixel names its source frame. The colour steps are 32 levels apart, far more than H.264, VP9 or
 * ProRes move a flat colour.
 */
import { execFile } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Session } from '../../src/session.js';
import { run } from './queue.js';

const exec = promisify(execFile);

/** The colour of frame `n` (up to 511): 8 steps each in red, green and blue. */
export function frameColor(n: number): [number, number, number] {
  return [16 + 32 * (n % 8), 16 + 32 * (Math.floor(n / 8) % 8), 16 + 32 * Math.floor(n / 64)];
}

/** The frame number a decoded pixel names. */
export function frameOf(r: number, g: number, b: number): number {
  const step = (v: number) => Math.max(0, Math.min(7, Math.round((v - 16) / 32)));
  return step(r) + 8 * step(g) + 64 * step(b);
}

/** The lavfi source of a numbered clip at `rate` with `frames` frames. */
function numberedSource(rate: string, frames: number, size: string): string {
  return (
    `color=c=black:s=${size}:r=${rate},format=rgb24,` +
    `geq=r='16+32*mod(N\\,8)':g='16+32*mod(floor(N/8)\\,8)':b='16+32*floor(N/64)',` +
    `trim=end_frame=${frames}`
  );
}

export const CODECS = {
  h264: { ext: 'mp4', args: ['-c:v', 'libx264', '-preset', 'ultrafast', '-qp', '0', '-pix_fmt', 'yuv420p'] },
  vp9: {
    ext: 'webm',
    args: ['-c:v', 'libvpx-vp9', '-lossless', '1', '-deadline', 'realtime', '-cpu-used', '8'],
  },
  prores: { ext: 'mov', args: ['-c:v', 'prores_ks', '-profile:v', '0', '-pix_fmt', 'yuv422p10le'] },
} as const;
export type Codec = keyof typeof CODECS;

/** Writes a numbered clip (frame N = frameColor(N)) and returns its path. `rate` as ffmpeg reads it: 24, 30000/1001. */
export async function numberedClip(
  dir: string,
  codec: Codec,
  rate: string,
  frames: number,
  options: { size?: string; extra?: string[] } = {},
): Promise<string> {
  const { ext, args } = CODECS[codec];
  const out = join(dir, `clip-${codec}-${rate.replace('/', '_')}.${ext}`);
  await exec('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i'],
    numberedSource(rate, frames, options.size ?? '64x48'),
    ...args,
    ...(options.extra ?? []),
    out,
  ]);
  return out;
}

/**
 * A variable-frame-rate clip: frames 0-9 at 1/24 s apart, then 1/12 s apart (`frames` in all; other spacings by
 * `first` and `rest`). Returns the
 * path and every frame's timestamp in seconds.
 */
export async function variableRateClip(
  dir: string,
  frames: number,
  codec: Codec = 'h264',
  ext: string = CODECS[codec].ext,
  // Frames 0-9 at 1/first s apart, the rest at 1/rest s apart. bFrames: H.264 as ffmpeg writes it by default
  // (B-frames, lossy but near enough for the colours), whose MP4 track can state less than its last frame's end.
  { first = 24, rest = 12, bFrames = false }: { first?: number; rest?: number; bFrames?: boolean } = {},
): Promise<{ path: string; times: number[] }> {
  const times = Array.from({ length: frames }, (_, n) => (n < 10 ? n / first : 10 / first + (n - 10) / rest));
  const out = join(dir, `vfr-${first}-${rest}.${ext}`);
  await exec('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i'],
    `${numberedSource('24', frames, '64x48')},setpts='if(lt(N\\,10)\\,N/${first}\\,10/${first}+(N-10)/${rest})/TB'`,
    ...['-fps_mode', 'vfr', ...(ext === 'mp4' ? ['-video_track_timescale', '24000'] : [])],
    ...(bFrames
      ? ['-c:v', 'libx264', '-preset', 'medium', '-crf', '10', '-pix_fmt', 'yuv420p']
      : CODECS[codec].args),
    out,
  ]);
  return { path: out, times };
}

/** Writes a numbered PNG sequence `f_0001.png` ... (frame N of the sequence is file first+N). */
export async function numberedSequence(dir: string, frames: number, first = 1): Promise<string> {
  const folder = join(dir, 'seq');
  await mkdir(folder, { recursive: true });
  const pattern = join(folder, 'f_%04d.png');
  await exec('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i'],
    numberedSource('30', frames, '64x48'),
    ...['-start_number', String(first)],
    pattern,
  ]);
  return pattern;
}

/** A 64x48, 24 fps, 1 s comp whose one layer shows `clip` (a 48-frame numbered clip) at `speed`. */
export async function numberedClipComp(
  s: Session,
  clip: string,
  speed = 1,
): Promise<{ comp: string; layer: string }> {
  const { id: comp } = await run<{ id: string }>(s, 'comp.new', {
    width: 64,
    height: 48,
    frameRate: 24,
    duration: 1,
  });
  const { id: footage } = await run<{ id: string }>(s, 'file.import', { path: clip });
  const { id: layer } = await run<{ id: string }>(s, 'layer.addFootage', { comp, footage });
  if (speed !== 1) await run(s, 'layer.setTimeMap', { comp, layer, speed });
  return { comp, layer };
}
