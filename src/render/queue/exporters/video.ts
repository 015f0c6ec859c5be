/**
 * Single-file outputs encoded by ffmpeg (the formats the format table gives `encoder: 'ffmpeg'`; their
 * arguments are in ffmpeg-formats.ts), fed raw frames on stdin: I420 for opaque MP4 and WebM, RGBA otherwise.
 * ffmpeg writes to a tracked temporary that is renamed when it exits cleanly. With sound (MP4, MOV, WebM of a
 * composition that has some), the same ffmpeg mixes it (audio/graph.ts: the sound files are its inputs from 1
 * on, the graph comes on pipe:3) and encodes it beside the picture: both start at the item's first frame and
 * last exactly its frames, so they stay in sync. One process, started at once: the sound was mixed first into a
 * temporary WAV by a second ffmpeg, and the first frame waited for it (~100 ms of ffmpeg's start-up alone).
 */
import { dirname } from 'node:path';
import { EngineError, type FfmpegFormat } from '../../../engine/index.js';
import type { FramePayload } from '../../encode.js';
import type { TrackedFile } from '../tracker.js';
import { FfmpegProcess, missingFfmpeg } from './ffmpeg.js';
import { completeFile, skipWhenPresent } from './single-file.js';
import { FFMPEG_FORMATS, ffmpegOutputArgs, pictureInput, type PictureInput } from './ffmpeg-formats.js';
import { ffmpegRate } from './frame-rate.js';
import { i420Size } from '../../yuv/i420.js';
import { mixGraph } from '../../audio/graph.js';
import { changedSound, soundCutShort } from '../../audio/mix.js';
import { ClipMeter } from '../../audio/clip-meter.js';
import { meteredMixWarnings } from '../silent-mix.js';
import { stopped } from '../item-errors.js';
import { isMuxedAudio, muxedAudioArgs } from './audio-formats.js';
import type { Exporter, ExporterContext, FrameSize, OutputFile } from './types.js';

/** Before an input: ffmpeg reads it on its main thread (see writeFrame). */
const NO_READER_THREAD = ['-thread_queue_size', '0'];

/** What the encoder adds for the sound: its inputs and graph, the streams it maps, the codec. */
interface SoundArgs {
  input: string[];
  map: string[];
  codec: string[];
  /** The mix's filter graph (FfmpegProcess's `filterGraph`). */
  graph?: string;
}

export class VideoExporter implements Exporter {
  readonly ordered = true;
  readonly payload: FramePayload;
  readonly #input: PictureInput;
  readonly #ctx: ExporterContext;
  readonly #format: FfmpegFormat;
  readonly #ffmpeg: string;
  #file: TrackedFile | null = null;
  #child: FfmpegProcess | null = null;
  /** The encoder, once started: by `begin`, or by the first frame. */
  #started: Promise<FfmpegProcess> | null = null;
  #aborted = false;
  readonly #meter = new ClipMeter();
  /** The sound's mix went through the meter to its end (the format carries sound and the item has some). */
  #metered = false;

  constructor(ctx: ExporterContext, format: FfmpegFormat) {
    if (!ctx.ffmpeg) throw missingFfmpeg(format);
    this.#ctx = ctx;
    this.#format = format;
    this.#ffmpeg = ctx.ffmpeg;
    // Opaque H.264/H.265/VP9 take I420 the workers convert: ffmpeg's swscale ran on its one main thread, in
    // series with feeding the encoder, and RGBA is 8/3 the bytes through the pipe (docs/exporters.md).
    this.#input = pictureInput(format, ctx.item.alpha);
    this.payload = { kind: this.#input };
  }

  /** One file: with skipExisting and the file present, the whole item is skipped. */
  prepare(): Promise<ReadonlySet<number> | 'all'> {
    return skipWhenPresent(this.#ctx);
  }

  /** Starts the encoder while the workers start: ffmpeg takes ~100 ms to start on a 2-core machine. */
  async begin(): Promise<void> {
    await this.#encoder();
  }

  async writeFrame(_frame: number, data: Uint8Array, size: FrameSize): Promise<void> {
    const { width, height } = this.#ctx.frameSize;
    // ffmpeg was told the size up front: a frame of another size would be read as garbage.
    if (size.width !== width || size.height !== height)
      throw new EngineError(
        'render_failed',
        `A frame came out ${size.width}x${size.height} where the encoder expects ${width}x${height}.`,
        'Render again; if it repeats, report it with the project.',
      );
    const child = await this.#encoder();
    await child.write(data).catch((err: unknown) => {
      throw this.#explained(err, child);
    });
  }

  /** An encoder failure on one of the sound's files names that file (audio/mix.ts), not ffmpeg's graph. */
  #explained(err: unknown, child: FfmpegProcess): unknown {
    const audio = this.#ctx.audio;
    return (audio && changedSound(err, child.stderrHead, audio)) ?? err;
  }

  #encoder(): Promise<FfmpegProcess> {
    this.#started ??= this.#startEncoder();
    return this.#started;
  }

  async #startEncoder(): Promise<FfmpegProcess> {
    const sound = this.#soundArgs();
    const size = this.#ctx.frameSize;
    await this.#ctx.tracker.ensureDir(dirname(this.#ctx.item.output));
    this.#file = await this.#ctx.tracker.create(this.#ctx.item.output);
    // I420 frames are the RGBA frame padded to even sizes (yuv/i420.ts).
    const picture = this.#input === 'i420' ? i420Size(size.width, size.height) : size;
    const input = [
      '-f',
      'rawvideo',
      '-pix_fmt',
      this.#input === 'i420' ? 'yuv420p' : 'rgba',
      '-s',
      `${picture.width}x${picture.height}`,
      '-r',
      ffmpegRate(this.#ctx.frameRate),
      // No reader thread: ffmpeg 5 gives each input one when a second input (the sound) is named or a queue
      // size is set, and with it held ~75 MB more at a 1080p render's peak (its queued 8 MB packets, and the
      // glibc heap they were allocated in), at the same speed: our own pipe already queues ahead of it.
      // 0 means "no thread" in ffmpeg 5 and "the default queue" in later versions (which always use one).
      ...NO_READER_THREAD,
      '-i',
      'pipe:0',
    ];
    const { item, frames } = this.#ctx;
    const output = ffmpegOutputArgs(
      this.#format,
      item.alpha,
      size,
      frames.length,
      item.encoding,
      this.#input,
      this.#ctx.frameRate,
    );
    // Aborted while the temporary was being made: no encoder is started that nothing would stop.
    if (this.#aborted) throw stopped();
    // childPath reaches the temporary through our handle on the checked folder, so ffmpeg cannot be
    // redirected by a folder swapped for a symlink after the check (see FileTracker).
    this.#child = new FfmpegProcess(
      this.#ffmpeg,
      [...input, ...sound.input, ...sound.map, ...output, ...sound.codec, '-y', this.#file.childPath],
      // With sound, a sound file cut short is listened for (its mix would be silent where the rest should be).
      {
        output: this.#ctx.item.output,
        filterGraph: sound.graph,
        watchInputs: Boolean(this.#ctx.audio?.clips.length),
        ...(sound.graph !== undefined && { onMeter: (chunk: Buffer) => this.#meter.feed(chunk) }),
      },
    );
    return this.#child;
  }

  /**
   * The encoder's arguments for the item's sound, when the format carries sound and the composition has any
   * (none without: no audio stream is written).
   */
  #soundArgs(): SoundArgs {
    const { audio } = this.#ctx;
    const format = this.#format;
    if (!audio?.clips.length || !isMuxedAudio(format)) return { input: [], map: [], codec: [] };
    const codec = muxedAudioArgs(format, this.#ctx.item.encoding);
    const { inputs, graph } = mixGraph(audio, 1, true);
    // Each sound file read on ffmpeg's main thread too, as the picture is: a reader thread per input is what
    // ffmpeg 5 starts for every input once there are two, unless told otherwise (see NO_READER_THREAD).
    const files = inputs.flatMap((arg) => (arg === '-i' ? [...NO_READER_THREAD, arg] : [arg]));
    return {
      input: files,
      map: ['-map', '0:v', '-map', '[mix]'],
      codec,
      graph,
    };
  }

  async finish(): Promise<OutputFile[]> {
    if (!this.#child || !this.#file) return [];
    const child = this.#child;
    await child.end().catch((err: unknown) => {
      throw this.#explained(err, child);
    });
    // The picture is input 0; the sound's files follow (graph.ts, mixGraph's firstInput).
    if (child.cutShort && this.#ctx.audio) throw soundCutShort(this.#ctx.audio, child.cutInputs, 1);
    this.#metered = Boolean(this.#ctx.audio?.clips.length) && isMuxedAudio(this.#format);
    const fixUp = FFMPEG_FORMATS[this.#format].finish;
    return completeFile(this.#ctx, this.#file, fixUp && ((path) => fixUp(path, this.#ctx.item.alpha)));
  }

  /** Whether the sound's mix clipped, or is silence from end to end (clip-meter.ts). */
  warnings(): string[] {
    return meteredMixWarnings(this.#meter, this.#ctx, this.#metered, true);
  }

  /** Kills ffmpeg first: its output file is deleted only after it can no longer write to it. */
  async abort(): Promise<void> {
    this.#aborted = true;
    await this.#child?.kill();
  }

  /** The ffmpeg child's pid (tests kill it to prove crash recovery). */
  get childPid(): number | undefined {
    return this.#child?.pid;
  }
}
