/**
 * Runs an item's mix (graph.ts) through one ffmpeg child into `output`, encoded with `outputArgs` (a WAV or MP3,
 * or a distributed render's intermediate WAV; a video's encoder mixes its own sound). The graph goes in through a
 * pipe (FfmpegProcess's `filterGraph`). The child is killable at any time (cancellation), like the video encoder.
 */
import { EngineError, isEngineError } from '../../engine/core.js';
import type { AudioMix } from './clips.js';
import { mixGraph } from './graph.js';
import { FfmpegProcess, type FfmpegOptions } from '../queue/exporters/ffmpeg.js';

export class AudioMixRun {
  readonly #child: FfmpegProcess;
  readonly #done: Promise<void>;

  /**
   * Starts ffmpeg; `shownPath` names the output in errors (a full disk). `watch`: its progress (the seconds of
   * the mix written so far) or, for an output to `pipe:1`, its bytes; `onMeter`, the clip meter (clip-meter.ts). `strict` (a render's): a file that ends
   * before its header says (copied half-way) fails the mix instead of leaving silence where its sound was; a
   * preview plays what there is.
   */
  constructor(
    ffmpeg: string,
    mix: AudioMix,
    outputArgs: string[],
    output: string,
    shownPath: string,
    watch: Pick<FfmpegOptions, 'onProgress' | 'onStdout' | 'onMeter'> = {},
    strict = false,
  ) {
    const { inputs, graph } = mixGraph(mix, 0, Boolean(watch.onMeter));
    this.#child = new FfmpegProcess(ffmpeg, [...inputs, '-map', '[mix]', ...outputArgs, '-y', output], {
      output: shownPath,
      filterGraph: graph,
      watchInputs: strict,
      ...watch,
    });
    this.#done = this.#child.end().then(
      () => {
        if (strict && this.#child.cutShort) throw soundCutShort(mix, this.#child.cutInputs);
      },
      (err: unknown) => {
        throw changedSound(err, this.#child.stderrHead, mix) ?? err;
      },
    );
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

/**
 * A mix one of whose files ended before its header said: the file ffmpeg named (`named`: paths as given, or
 * `#N` input indexes, the mix's first at `firstInput`), else the only file, else all of them as candidates.
 */
export function soundCutShort(
  mix: AudioMix,
  named: ReadonlySet<string> = new Set(),
  firstInput = 0,
): EngineError {
  // The graph's inputs in its order: one per file (graph.ts).
  const inputs = [...new Map(mix.clips.map((c) => [c.path, c.shown ?? c.path])).entries()];
  const culprits = inputs.filter(([path], i) => named.has(path) || named.has(`#${i + firstInput}`));
  const files = (culprits.length ? culprits : inputs).map(([, shown]) => shown);
  const which = files.length === 1 ? `"${files[0]}"` : `one of ${files.map((f) => `"${f}"`).join(', ')}`;
  return new EngineError(
    'unsupported_format',
    `The sound of ${which} ends before its file says it does (cut short, or damaged): the mix would be silent where the rest of it should be.`,
    'Put the whole file back (copy it again), or relink the footage to a complete one (footage.relink). A sound file damaged where it was made can be re-encoded (ffmpeg -i FILE fixed.wav) and the footage relinked to that.',
  );
}

/**
 * A mix that failed on one of its files: a file the document says has sound that no longer has any ("matches no
 * streams"), or that ffmpeg cannot read any more (it names the open file). Both mean the file changed since it
 * was imported; the error names the footage file, not the descriptor ffmpeg was given. null when the failure is
 * not one of these (a full disk, a killed run).
 */
export function changedSound(err: unknown, head: string, mix: AudioMix): EngineError | null {
  if (!isEngineError(err) || err.code !== 'render_failed') return null;
  // The graph's inputs, in its order: one per file (graph.ts).
  const files = [...new Map(mix.clips.map((c) => [c.path, c.shown ?? c.path])).entries()];
  // ffmpeg names the stream specifier (":a:0"), not the input, and echoes the whole graph after it: the file is
  // known only when the mix has one (the render's probe, sound-unchanged.ts, names it before the mix runs).
  const noStream = /matches no streams/.test(head) && /filtergraph description/.test(head);
  const byPath = files.find(([opened]) => err.message.includes(`${opened}:`) || head.includes(`${opened}:`));
  const file = byPath ?? (noStream && files.length === 1 ? files[0] : undefined);
  const what = byPath ? 'can no longer be read as media' : 'has no sound stream any more';
  if (!file && !noStream) return null;
  return new EngineError(
    'unsupported_format',
    file
      ? `The sound of "${file[1]}" cannot be mixed: the file ${what}; it has changed since it was imported.`
      : `The sound cannot be mixed: one of its files (${files.map(([, shown]) => `"${shown}"`).join(', ')}) ${what}; it has changed since it was imported.`,
    'Put the file back as it was, or relink the footage to it (footage.relink) so that it is probed again.',
  );
}
