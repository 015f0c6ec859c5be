/**
 * Test sound generated with ffmpeg (no binary fixtures) and measured back from decoded samples: tones of
 * known frequency, clicks at known times, RMS per window, frequency by zero crossings, the streams of a file.
 */
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const exec = promisify(execFile);
const QUIET = ['-hide_banner', '-loglevel', 'error', '-y'];
export const RATE = 48_000;

/** A sine tone file (`ext` picks the container: wav, mp3, m4a, flac, ogg, opus). */
export async function tone(
  dir: string,
  opts: { freq: number; seconds: number; ext?: string; rate?: number; channels?: number; amplitude?: number },
): Promise<string> {
  const ext = opts.ext ?? 'wav';
  const out = join(dir, `tone-${opts.freq}-${opts.seconds}.${ext}`);
  const amp = opts.amplitude ?? 0.5;
  const src = `aevalsrc=${amp}*sin(2*PI*${opts.freq}*t):s=${opts.rate ?? 44_100}:d=${opts.seconds}`;
  const codec = ext === 'ogg' || ext === 'opus' ? ['-c:a', 'libopus'] : ext === 'm4a' ? ['-c:a', 'aac'] : [];
  await exec('ffmpeg', [
    ...QUIET,
    '-f',
    'lavfi',
    '-i',
    src,
    '-ac',
    String(opts.channels ?? 1),
    ...codec,
    out,
  ]);
  return out;
}

/** A silent WAV of `seconds` with one 1 ms click (full scale) starting at `at` seconds. */
export async function click(dir: string, at: number, seconds: number): Promise<string> {
  const out = join(dir, `click-${at}.wav`);
  const src = `aevalsrc='if(between(t,${at},${at}+0.001),0.9,0)':s=${RATE}:d=${seconds}`;
  await exec('ffmpeg', [...QUIET, '-f', 'lavfi', '-i', src, '-c:a', 'pcm_f32le', out]);
  return out;
}

/** What ffmpeg writes to stdout for `args` (after the input options), as bytes. */
export async function ffmpegBytes(args: string[]): Promise<Buffer> {
  const { stdout } = await exec('ffmpeg', ['-hide_banner', '-loglevel', 'error', ...args], {
    encoding: 'buffer',
    maxBuffer: 1 << 30,
  });
  return stdout as unknown as Buffer;
}

/**
 * One channel (default the first, the left side) of the file's first audio stream, decoded to 48 kHz float
 * samples. Not a downmix: ffmpeg's sums the sides at -3 dB each, which would hide a mix that lowers mono by 3 dB
 * (its default upmix), as the two cancel.
 */
export async function decodeSound(path: string, channel = 0): Promise<Float32Array> {
  const bytes = await ffmpegBytes([
    ...['-i', path, '-map', '0:a:0', '-af', `pan=mono|c0=c${channel}`],
    ...['-ar', String(RATE), '-f', 'f32le', '-'],
  ]);
  return new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength));
}

/** Root mean square of samples [from, to) seconds. */
export function rms(s: Float32Array, from: number, to: number): number {
  const [a, b] = [Math.round(from * RATE), Math.min(s.length, Math.round(to * RATE))];
  let sum = 0;
  for (let i = a; i < b; i++) sum += s[i]! * s[i]!;
  return Math.sqrt(sum / Math.max(1, b - a));
}

/** Level in dB of the RMS of [from, to) relative to `reference`. */
export const dbOf = (value: number, reference: number) => 20 * Math.log10(value / reference);

/** Frequency of [from, to) seconds by counting rising zero crossings. */
export function frequency(s: Float32Array, from: number, to: number): number {
  const [a, b] = [Math.round(from * RATE), Math.min(s.length, Math.round(to * RATE))];
  let first = -1;
  let last = -1;
  let count = 0;
  for (let i = a + 1; i < b; i++) {
    if (s[i - 1]! < 0 && s[i]! >= 0) {
      if (first < 0) first = i;
      else count++;
      last = i;
    }
  }
  return count > 0 ? (count * RATE) / (last - first) : 0;
}

/** The index of the first sample whose magnitude reaches `threshold`, or -1. */
export function firstLoud(s: Float32Array, threshold = 0.3): number {
  return s.findIndex((v) => Math.abs(v) >= threshold);
}

export interface StreamInfo {
  codec_type: string;
  codec_name: string;
  sample_rate?: string;
  channels?: number;
  duration?: string;
}

/** The streams of a media file as ffprobe reports them. */
export async function streamsOf(path: string): Promise<StreamInfo[]> {
  const { stdout } = await exec('ffprobe', ['-v', 'error', '-show_streams', '-of', 'json', path]);
  return (JSON.parse(stdout) as { streams: StreamInfo[] }).streams;
}
