/**
 * Audio-only outputs (WAV, MP3; the format table's `encoder: 'ffmpeg-audio'`): the item's mix encoded by one
 * ffmpeg child straight into a tracked temporary, renamed when it exits cleanly. No picture is rendered (the
 * item's plan says so), so writeFrame is never called; a silent composition gives silence of the item's length.
 */
import { dirname } from 'node:path';
import type { AudioOnlyFormat } from '../../../engine/index.js';
import { ClipMeter } from '../../audio/clip-meter.js';
import { meteredMixWarnings } from '../silent-mix.js';
import { AudioMixRun } from '../../audio/mix.js';
import type { FramePayload } from '../../encode.js';
import { audioOnlyArgs } from './audio-formats.js';
import { missingFfmpeg } from './ffmpeg.js';
import { completeFile, skipWhenPresent } from './single-file.js';
import type { Exporter, ExporterContext, OutputFile } from './types.js';

export class AudioExporter implements Exporter {
  readonly ordered = true;
  readonly payload: FramePayload = { kind: 'rgba' };
  readonly #ctx: ExporterContext;
  readonly #format: AudioOnlyFormat;
  readonly #ffmpeg: string;
  #skip = false;
  #run: AudioMixRun | null = null;
  readonly #meter = new ClipMeter();
  /** The mix had layers to hear and went through the meter to its end. */
  #metered = false;

  constructor(ctx: ExporterContext, format: AudioOnlyFormat) {
    if (!ctx.ffmpeg) throw missingFfmpeg(format, true);
    this.#ctx = ctx;
    this.#format = format;
    this.#ffmpeg = ctx.ffmpeg;
  }

  /** One file: with skipExisting and the file present, the whole item is skipped. */
  async prepare(): Promise<ReadonlySet<number> | 'all'> {
    const skip = await skipWhenPresent(this.#ctx);
    this.#skip = skip === 'all';
    return skip;
  }

  async writeFrame(): Promise<void> {
    throw new Error('an audio-only item renders no frames');
  }

  async finish(): Promise<OutputFile[]> {
    const { item, tracker, audio, frames, frameRate } = this.#ctx;
    if (this.#skip) return [];
    // renderQueue.add refuses audio:false for these formats; an item without sound still gets its silence.
    const mix = audio ?? { start: frames[0]! / frameRate, duration: frames.length / frameRate, clips: [] };
    await tracker.ensureDir(dirname(item.output));
    const file = await tracker.create(item.output);
    const total = frames.length;
    this.#run = new AudioMixRun(
      this.#ffmpeg,
      mix,
      audioOnlyArgs(this.#format, item.encoding),
      file.childPath,
      item.output,
      // The frames' span the sound written so far covers (the end counts once the file is complete).
      {
        onProgress: (seconds) => this.#ctx.progress(Math.min(total - 1, Math.floor(seconds * frameRate))),
        onMeter: (chunk) => this.#meter.feed(chunk),
      },
      true,
    );
    await this.#run.finished();
    this.#metered = mix.clips.length > 0;
    return completeFile(this.#ctx, file);
  }

  /** Whether the mix clipped, or is silence from end to end (clip-meter.ts). */
  warnings(): string[] {
    return meteredMixWarnings(this.#meter, this.#ctx, this.#metered, false);
  }

  /** Kills ffmpeg first: its output file is deleted only after it can no longer write to it. */
  async abort(): Promise<void> {
    await this.#run?.kill();
  }
}
