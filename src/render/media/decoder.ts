/**
 * One ffmpeg child decoding a video to raw RGBA frames on its stdout, from a start time on, in order. Reading
 * is pulled: at most a couple of frames wait in memory, then the socket fills and ffmpeg blocks, so a decoder
 * left idle costs no CPU. `close()` kills it (SIGKILL); a decoder whose reader died gets EPIPE and exits.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import type { Readable } from 'node:stream';
import { EngineError } from '../../engine/core.js';
import type { YuvMatrix } from '../yuv/i420.js';
import { readerSocketPair, type SocketPair } from './frame-socket.js';
import { footageInput } from './input-formats.js';
import { tiedToParent } from '../../node-io/child-lifetime.js';

/** Frames decoded ahead of the reader before its socket (or pipe) is left to fill. */
const READ_AHEAD = 1;
const STDERR_TAIL = 2000;

export interface DecoderSpec {
  ffmpeg: string;
  /** What ffmpeg opens: the media file's childPath. */
  input: string;
  /** The item's picture size (after rotation and pixel aspect): frames are scaled to it when they differ. */
  width: number;
  height: number;
  /**
   * Seconds from the file's start of the first frame wanted (accurate seek: earlier frames are dropped), or, with
   * `trim`, where the fast seek goes, `trim` seconds before it (seek-plan.ts).
   */
  seek: number;
  /** Seconds after `seek` before which decoded frames are dropped by their timestamps. */
  trim?: number;
  /** The codec as probed; VP8/VP9 alpha is decoded only by libvpx. */
  codec: string | null;
  alpha: boolean;
  /**
   * For a clip whose tags state no matrix: the one to read it with (sizeMatrix: BT.709 for HD), instead of
   * swscale's BT.601 at every size. Absent: the tags (or swscale's default) decide.
   */
  untaggedMatrix?: YuvMatrix;
  /** For 'i420' output: the clip's own 8-bit 4:2:0 pixel format, which the frames keep (no conversion). */
  planar?: 'yuv420p' | 'yuvj420p';
  /** Told the child's pid when it starts and when it ends (so the owner of the thread can kill leftovers). */
  onChild?: (pid: number, alive: boolean) => void;
}

/**
 * What the child writes on stdout: raw RGBA frames, or (for the scrub cache) each frame as a JPEG in ffmpeg's
 * multipart stream. Both go through the same scale, so a JPEG is the same picture as the raw frame, compressed.
 * 'i420': the clip's own planar 4:2:0 samples, untouched (the footage plates of over-plate.ts); only for clips
 * stored so, at their own size.
 */
export type DecoderOutput = 'rgba' | 'mjpeg' | 'i420';

/**
 * Raw frames out, each in one write: ffmpeg's output buffer would cut a 1080p frame into ~100 writes of 32 KB
 * (~250 in RGBA), each a wake-up of the reader (240 I420 frames to a reader: ffmpeg's CPU, median of 4, 2.27 s
 * buffered, 2.10 s direct).
 */
const RAW_OUT = ['-avioflags', 'direct', '-f', 'rawvideo'];

export function decoderArgs(
  spec: DecoderSpec,
  squarePixels: boolean,
  output: DecoderOutput = 'rgba',
): string[] {
  const libvpx = spec.codec === 'vp9' ? 'libvpx-vp9' : spec.codec === 'vp8' ? 'libvpx' : null;
  return [
    ...['-hide_banner', '-loglevel', 'error', '-nostdin'],
    // Before -i: a fast seek to the key frame before, then frames up to the time decoded and dropped.
    ...(spec.seek > 0 ? ['-ss', spec.seek.toFixed(6)] : []),
    ...(spec.alpha && libvpx ? ['-c:v', libvpx] : []),
    // One decoding thread: every render worker has a decoder of its own, and each thread costs frame buffers
    // (a 1080p H.264 decoder takes ~100 MB with one thread, ~140 MB with two); decoding is not the bottleneck.
    // The scrub cache's one run per clip takes two: a preview waits for its first frame, and later it runs niced.
    ...['-threads', output === 'mjpeg' ? '2' : '1'],
    ...footageInput(spec.input),
    ...['-map', '0:v:0', '-an', '-sn', '-dn'],
    // After -i: frames before it are decoded and dropped by their timestamps, whatever the seek before gave.
    ...(spec.trim !== undefined && spec.trim > 0 ? ['-ss', spec.trim.toFixed(6)] : []),
    // Every decoded frame once, as timed in the file: no frames duplicated or dropped to reach a rate.
    ...['-fps_mode', 'passthrough'],
    ...(output === 'i420'
      ? [...RAW_OUT, '-pix_fmt', spec.planar ?? 'yuv420p', 'pipe:1']
      : pictureArgs(spec, squarePixels, output)),
  ];
}

function pictureArgs(spec: DecoderSpec, squarePixels: boolean, output: 'rgba' | 'mjpeg'): string[] {
  return [
    // ffmpeg turns rotated footage itself (autorotate); anamorphic pixels are scaled to square ones here.
    // The scale also converts to RGB with the matrix and range the clip's tags state; an untagged clip's matrix
    // is the one its size implies (spec.untaggedMatrix), as players read it, not swscale's BT.601 at any size.
    // full_chroma_int: swscale's fast path turns 10-bit 4:2:2 (ProRes) 2 levels dark (grey 128 -> 126);
    // with it ProRes costs ~5 ms more a 1080p frame and 8-bit H.264 nothing measurable.
    // For JPEG the picture goes through RGB (format=rgb24) on the way: straight from the clip's YUV, swscale would
    // keep its BT.709 matrix, and JPEG decoders read every file as BT.601.
    ...(output === 'mjpeg' ? ['-filter_threads', '2'] : []),
    ...[
      '-vf',
      `scale=${squarePixels ? '' : `${spec.width}:${spec.height}:`}flags=bicubic+full_chroma_int` +
        (spec.untaggedMatrix ? `:in_color_matrix=${spec.untaggedMatrix}` : '') +
        (output === 'mjpeg' ? ',format=rgb24' : ''),
    ],
    ...(output === 'rgba'
      ? [...RAW_OUT, '-pix_fmt', 'rgba', 'pipe:1']
      : // The RGB picture to JPEG's own full-range BT.601 YCbCr, which every JPEG decoder turns back the same way;
        // 4:2:0 like the sources it stands in for; qscale 2, ffmpeg's finest.
        [
          ...['-threads', '2', '-c:v', 'mjpeg', '-q:v', '2', '-pix_fmt', 'yuvj420p'],
          ...['-f', 'mpjpeg', 'pipe:1'],
        ]),
  ];
}

/**
 * Starts ffmpeg decoding `spec`, its pid told to `spec.onChild` as it starts and once it has ended; its stdout a
 * pipe, or `stdout` (a socket whose descriptor the child gets a copy of).
 */
export function spawnDecoder(
  spec: DecoderSpec,
  squarePixels: boolean,
  output: DecoderOutput,
  stdout: 'pipe' | Socket = 'pipe',
): ChildProcess {
  const child = spawn(...tiedToParent(spec.ffmpeg, decoderArgs(spec, squarePixels, output)), {
    stdio: ['ignore', stdout, 'pipe'],
  });
  const pid = child.pid;
  if (pid !== undefined) {
    spec.onChild?.(pid, true);
    child.on('close', () => spec.onChild?.(pid, false));
  }
  return child;
}

/** Frame buffers kept for reuse per decoder: those read ahead, the one being filled, and the reader's two. */
const MAX_SPARE_BUFFERS = READ_AHEAD + 3;

export class VideoDecoder {
  readonly #frameBytes: number;
  #child: ChildProcess | null = null;
  /** Where the frames come from: a socket reading into them (frame-socket.ts), or the child's stdout pipe. */
  #source: Readable | null = null;
  readonly #frames: Buffer[] = [];
  /**
   * The frame being filled, and buffers handed back by the reader (recycle): a 1080p frame is 8 MB, and
   * allocating one per frame makes the garbage collector run every few frames.
   */
  #filling: Buffer | null = null;
  #filled = 0;
  readonly #spare: Buffer[] = [];
  #ended = false;
  #stderr = '';
  #waiter: (() => void) | null = null;
  #closed = false;
  /** The path ffmpeg was given (a descriptor's /proc path), which its messages name in place of the file. */
  #input = '';

  /** A decoder of `spec` reading its frames from the first on. */
  static async start(
    spec: DecoderSpec,
    squarePixels: boolean,
    output: 'rgba' | 'i420' = 'rgba',
  ): Promise<VideoDecoder> {
    const decoder = new VideoDecoder(spec.width * spec.height * (output === 'i420' ? 1.5 : 4));
    const pair = await readerSocketPair({
      buffer: () => decoder.#fillable(),
      read: (n) => decoder.#filledBy(n),
    });
    decoder.#spawn(spec, squarePixels, output, pair);
    return decoder;
  }

  private constructor(frameBytes: number) {
    this.#frameBytes = frameBytes;
  }

  #spawn(spec: DecoderSpec, squarePixels: boolean, output: 'rgba' | 'i420', pair: SocketPair | null): void {
    const child = spawnDecoder(spec, squarePixels, output, pair?.childEnd ?? 'pipe');
    this.#child = child;
    this.#input = spec.input;
    child.stderr!.setEncoding('utf8');
    child.stderr!.on('data', (s: string) => (this.#stderr = (this.#stderr + s).slice(-STDERR_TAIL)));
    child.on('error', (err) => (this.#stderr += err.message));
    if (pair) {
      // The child has its own copy; ours would keep the reader from ever seeing the end of the stream.
      pair.childEnd.destroy();
      this.#source = pair.reader;
    } else {
      this.#source = child.stdout!;
      child.stdout!.on('data', (chunk: Buffer) => this.#take(chunk));
    }
    this.#source.on('error', (err) => (this.#stderr += err.message));
    // The end of the stream, not of the child: frames still in the socket are read first.
    this.#source.on('close', () => this.#finish());
  }

  /** Where the next bytes go: the rest of the frame being filled. */
  #fillable(): Buffer {
    this.#filling ??= this.#spare.pop() ?? Buffer.allocUnsafeSlow(this.#frameBytes);
    return this.#filling.subarray(this.#filled);
  }

  /** `n` more bytes of the frame being filled; false once enough frames wait (the source then pauses). */
  #filledBy(n: number): boolean {
    this.#filled += n;
    if (this.#filled === this.#frameBytes) {
      this.#frames.push(this.#filling!);
      this.#filling = null;
      this.#filled = 0;
    }
    this.#wake();
    return this.#frames.length < READ_AHEAD;
  }

  /** A chunk from the stdout pipe, copied into frames. */
  #take(chunk: Buffer): void {
    let offset = 0;
    let more = true;
    while (offset < chunk.length) {
      const n = chunk.copy(this.#fillable(), 0, offset);
      offset += n;
      more = this.#filledBy(n);
    }
    if (!more) this.#source!.pause();
  }

  #finish(): void {
    this.#ended = true;
    this.#wake();
  }

  #wake(): void {
    const w = this.#waiter;
    this.#waiter = null;
    w?.();
  }

  /** The next frame (RGBA, straight alpha; or I420), or null when the footage has no more. */
  async next(): Promise<Buffer | null> {
    for (;;) {
      const frame = this.#frames.shift();
      if (frame) {
        if (this.#frames.length < READ_AHEAD) this.#source?.resume();
        return frame;
      }
      if (this.#ended || this.#closed) return null;
      this.#source?.resume();
      await new Promise<void>((resolve) => (this.#waiter = resolve));
    }
  }

  /** Hands back a frame `next()` gave that is no longer needed, for the frames to come. */
  recycle(frame: Buffer): void {
    if (frame.length === this.#frameBytes && this.#spare.length < MAX_SPARE_BUFFERS) this.#spare.push(frame);
  }

  /** Why the decoder produced nothing, from its stderr. */
  failure(shownPath: string): EngineError {
    const last = this.#stderr.trim().split('\n').at(-1) ?? '';
    // "/proc/1/fd/23: Invalid data..." says what of the file already named: the prefix goes.
    const said = this.#input
      ? last.replaceAll(`${this.#input}: `, '').replaceAll(this.#input, shownPath)
      : last;
    return new EngineError(
      'unsupported_format',
      `ffmpeg could not decode "${shownPath}"${said ? `: ${said.slice(0, 300)}` : ''}.`,
      'Check the file plays (ffplay), or convert it (ffmpeg -i in -c:v libx264 out.mp4) and point the footage at the new file (footage.relink).',
    );
  }

  /** Kills ffmpeg. Safe to call twice. */
  close(): void {
    this.#closed = true;
    this.#spare.length = 0;
    const child = this.#child;
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    this.#source?.destroy();
    this.#wake();
  }
}
