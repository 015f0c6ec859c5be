/**
 * Runs an item's mix (graph.ts) through one ffmpeg child into `output`, encoded with `outputArgs`. The graph
 * goes in on stdin (`-filter_complex_script pipe:0`): a keyframed level makes it longer than one argument may
 * be (128 KiB on Linux). The child is killable at any time (cancellation), like the video encoder.
 */
import type { AudioMix } from './clips.js';
import { mixGraph } from './graph.js';
import { FfmpegProcess } from '../queue/exporters/ffmpeg.js';

export class AudioMixRun {
  readonly #child: FfmpegProcess;
  readonly #done: Promise<void>;

  /** Starts ffmpeg; `shownPath` names the output in errors (a full disk). */
  constructor(ffmpeg: string, mix: AudioMix, outputArgs: string[], output: string, shownPath: string) {
    const { inputs, graph } = mixGraph(mix);
    this.#child = new FfmpegProcess(
      ffmpeg,
      [...inputs, '-filter_complex_script', 'pipe:0', '-map', '[mix]', ...outputArgs, '-y', output],
      shownPath,
    );
    this.#done = this.#child.write(Buffer.from(graph, 'utf8')).then(() => this.#child.end());
    // Whoever awaits finished() sees a failure; a run killed before anyone awaited it must not crash the process.
    this.#done.catch(() => undefined);
  }

  /** Resolves when the file is complete; rejects as the video encoder does (render_failed, io_error). */
  finished(): Promise<void> {
    return this.#done;
  }

  /** Kills ffmpeg and waits until it is gone (its file can then be removed). */
  async kill(): Promise<void> {
    await this.#child.kill();
  }
}
