/**
 * Single-file outputs encoded by ffmpeg: MP4 (H.264, yuv420p), WebM (VP9), MOV (ProRes 422 HQ), animated GIF
 * and animated WebP; with RGB + Alpha, VP9 with alpha, ProRes 4444, transparent GIF and WebP (alpha.ts).
 * ffmpeg writes to a tracked temporary that is renamed when it exits cleanly.
 */
import { promises as fs } from 'node:fs';
import { dirname } from 'node:path';
import { EngineError, type OutputFormat } from '../../../engine/index.js';
import type { FramePayload } from '../encode.js';
import type { TrackedFile } from '../tracker.js';
import { alphaEncoderArgs } from './alpha.js';
import { FfmpegProcess, missingFfmpeg } from './ffmpeg.js';
import { sha256File } from './hash.js';
import { disableWebpBlending } from './webp-frames.js';
import type { Exporter, ExporterContext, FrameSize, OutputFile } from './types.js';
import { VP9_QUALITY } from './codec-options.js';

export type VideoFormat = Extract<OutputFormat, 'mp4' | 'webm' | 'mov' | 'gif' | 'webp-anim'>;

// yuv420p needs even sizes; padding keeps every pixel instead of scaling.
const EVEN = 'pad=ceil(iw/2)*2:ceil(ih/2)*2';
// A two-pass palette holds every frame in ffmpeg until the end; above this, GIFs use a fixed palette.
const PALETTE_BUDGET_BYTES = 512 * 1024 * 1024;

/** ffmpeg output arguments per format (after the raw-video input). */
export function encoderArgs(format: VideoFormat, size: FrameSize, frames: number): string[] {
  switch (format) {
    case 'mp4':
      return [
        '-vf',
        EVEN,
        '-c:v',
        'libx264',
        '-preset',
        'medium',
        '-crf',
        '18',
        '-pix_fmt',
        'yuv420p',
        '-movflags',
        '+faststart',
        '-f',
        'mp4',
      ];
    case 'webm':
      return ['-vf', EVEN, ...VP9_QUALITY, '-pix_fmt', 'yuv420p', '-f', 'webm'];
    case 'mov':
      return ['-c:v', 'prores_ks', '-profile:v', '3', '-pix_fmt', 'yuv422p10le', '-f', 'mov'];
    case 'gif':
      return size.width * size.height * 4 * frames <= PALETTE_BUDGET_BYTES
        ? [
            '-filter_complex',
            'split[a][b];[a]palettegen=stats_mode=full[p];[b][p]paletteuse',
            '-loop',
            '0',
            '-f',
            'gif',
          ]
        : ['-loop', '0', '-f', 'gif'];
    case 'webp-anim':
      // libwebp (not libwebp_anim): every frame a full lossy key frame. libwebp_anim's lossy sub-frames blend
      // "close enough" pixels with the previous frame, leaving trails of moving objects (up to 65 levels),
      // and merge near-identical frames; its lossless mode is exact but ~5x slower and 3-8x bigger.
      return ['-c:v', 'libwebp', '-quality', '85', '-loop', '0', '-f', 'webp'];
  }
}

export class VideoExporter implements Exporter {
  readonly ordered = true;
  readonly payload: FramePayload = { kind: 'rgba' };
  readonly #ctx: ExporterContext;
  readonly #format: VideoFormat;
  readonly #ffmpeg: string;
  #file: TrackedFile | null = null;
  #child: FfmpegProcess | null = null;

  constructor(ctx: ExporterContext, format: VideoFormat) {
    if (!ctx.ffmpeg) throw missingFfmpeg(format);
    this.#ctx = ctx;
    this.#format = format;
    this.#ffmpeg = ctx.ffmpeg;
  }

  /** One file: with skipExisting and the file present, the whole item is skipped. */
  async prepare(): Promise<ReadonlySet<number>> {
    const { item, frames } = this.#ctx;
    const exists = await fs.lstat(item.output).then(
      () => true,
      () => false,
    );
    return item.skipExisting && exists ? new Set(frames) : new Set();
  }

  async writeFrame(_frame: number, data: Uint8Array, size: FrameSize): Promise<void> {
    // ffmpeg needs the frame size up front; the first frame tells it (it depends on the renderer's rounding).
    if (!this.#child) {
      await this.#ctx.tracker.ensureDir(dirname(this.#ctx.item.output));
      this.#file = await this.#ctx.tracker.create(this.#ctx.item.output);
      const input = [
        '-f',
        'rawvideo',
        '-pix_fmt',
        'rgba',
        '-s',
        `${size.width}x${size.height}`,
        '-r',
        String(this.#ctx.frameRate),
        '-i',
        'pipe:0',
      ];
      const n = this.#ctx.frames.length;
      const output =
        this.#ctx.item.alpha && this.#format !== 'mp4'
          ? alphaEncoderArgs(this.#format, size, n)
          : encoderArgs(this.#format, size, n);
      // childPath reaches the temporary through our handle on the checked folder, so ffmpeg cannot be
      // redirected by a folder swapped for a symlink after the check (see FileTracker).
      this.#child = new FfmpegProcess(
        this.#ffmpeg,
        [...input, ...output, '-y', this.#file.childPath],
        this.#ctx.item.output,
      );
    }
    await this.#child.write(data);
  }

  async finish(): Promise<OutputFile[]> {
    if (!this.#child || !this.#file) return [];
    await this.#child.end();
    // Never trust the exit alone: an empty temporary means ffmpeg lost its output (a full disk, typically).
    const written = await fs.stat(this.#file.childPath);
    if (written.size === 0)
      throw new EngineError(
        'render_failed',
        `ffmpeg finished but wrote an empty file for "${this.#ctx.item.output}".`,
        'Check the free space on the output volume, then render again.',
      );
    if (this.#format === 'webp-anim') await disableWebpBlending(this.#file.childPath);
    await this.#ctx.tracker.commit(this.#file);
    const { finalPath: path, readPath } = this.#file;
    const { size } = await fs.stat(readPath);
    return [{ path, bytes: size, sha256: await sha256File(readPath) }];
  }

  /** Kills ffmpeg first: its output file is deleted only after it can no longer write to it. */
  async abort(): Promise<void> {
    await this.#child?.kill();
  }

  /** The ffmpeg child's pid (tests kill it to prove crash recovery). */
  get childPid(): number | undefined {
    return this.#child?.pid;
  }
}
