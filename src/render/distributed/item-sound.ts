/**
 * The sound of a video item rendered in segments: mixed once, for the whole item, with a local render's graph
 * (the same clips from the item's props-applied document) into a temporary WAV, then muxed while the segments
 * are joined. Never per chunk: each AAC segment would start with its own priming and leave a gap at
 * every seam. A stop (the render cancelled, the worker shutting down) kills the mix at once: a long composition's
 * mix takes seconds.
 */
import type { EnginePorts, Project, RenderQueueItem } from '../../engine/index.js';
import { AudioMixRun } from '../audio/mix.js';
import { MIX_INTERMEDIATE_ARGS } from '../queue/exporters/audio-formats.js';
import { untilStopped } from '../queue/exporters/ffmpeg.js';
import { stopped } from '../queue/item-errors.js';
import { planItem } from '../queue/plan.js';
import { soundInput } from '../queue/sound-input.js';
import { templateDoc } from '../queue/template-doc.js';
import type { FileTracker, TrackedFile } from '../queue/tracker.js';

/**
 * Mixes the whole item's sound into a tracked temporary WAV; null when nothing is audible over its frames.
 * `signal` aborting kills ffmpeg and fails with `cancelled` (the caller removes the tracker's files).
 */
export async function mixItemSound(
  tracker: FileTracker,
  doc: Project,
  item: RenderQueueItem,
  ports: EnginePorts,
  ffmpeg: string,
  signal: AbortSignal,
): Promise<TrackedFile | null> {
  const closes: Array<() => Promise<void>> = [];
  try {
    const templated = await templateDoc(doc, item, ports);
    const { mix, checked } = await soundInput(templated, planItem(templated, item), ports, ffmpeg, (close) =>
      closes.push(close),
    );
    await checked;
    if (!mix.clips.length) return null;
    if (signal.aborted) throw stopped();
    const file = await tracker.create(`${item.output}.mix.wav`);
    const run = new AudioMixRun(ffmpeg, mix, MIX_INTERMEDIATE_ARGS, file.childPath, item.output, {}, true);
    await untilStopped(run, signal, stopped);
    return file;
  } finally {
    await Promise.all(closes.map((close) => close().catch(() => undefined)));
  }
}
