/**
 * A queue item as a job renders it. The stored item (renderQueue.add fills every field and a project file's
 * items are held to the same rules) is checked again and resolved once here into its frames and render
 * settings; the job, the exporters and the workers trust the plan and decide nothing again.
 */
import {
  EngineError,
  frameCount,
  type Composition,
  type Project,
  type RenderQueueItem,
} from '../../engine/index.js';
import { formatSpec } from '../../engine/output-formats.js';
import { remedyText } from '../../engine/errors.js';
import { checkRenderItem } from '../../engine/render-item-rules.js';
import { refuseFootageOverwrite, rewrittenFile, rewrittenManifest } from './output-overlap.js';
import { outputSize } from '../output-size.js';

/** Inclusive frame numbers. */
export interface FrameSpan {
  start: number;
  end: number;
}

export interface ItemPlan {
  /** The item as stored: what exporters see as `ctx.item`. */
  item: RenderQueueItem;
  frameRate: number;
  /** The frames to render, in order. */
  frames: number[];
  /** What the workers render every frame with: RGB + Alpha items on a transparent background. */
  render: { scale: number; transparent: boolean };
  /** The size of every rendered frame (the composition at the item's scale), known before any is drawn. */
  frameSize: { width: number; height: number };
  /** Whether frames are rendered at all: an audio-only format (WAV, MP3) is the sound alone. */
  picture: boolean;
  /** Whether the output carries the composition's sound: the format has sound and the item did not turn it off. */
  sound: boolean;
}

/**
 * The frames an item renders: its frameRange, or the whole composition. null when it has no range and its
 * composition is gone (renderQueue.list then shows 0 frames; a render fails the item).
 */
export function frameSpan(item: Pick<RenderQueueItem, 'frameRange'>, comp?: Composition): FrameSpan | null {
  return item.frameRange ?? (comp ? { start: 0, end: frameCount(comp) - 1 } : null);
}

/**
 * How many frames `item` renders in `doc` (0 when its composition is gone): what renderQueue.list and a
 * job's statuses show for an item before it has started, or that never did (stopped before its turn).
 */
export function framesOf(doc: Project, item: Pick<RenderQueueItem, 'frameRange' | 'comp'>): number {
  const comp = doc.items.find((i) => i.id === item.comp);
  const span = frameSpan(item, comp?.type === 'composition' ? comp : undefined);
  return span ? span.end - span.start + 1 : 0;
}

/**
 * Resolves `item` against the job's snapshot `doc`; throws EngineError when it cannot be rendered. `written`:
 * the files earlier items of the same render wrote, which this one may not write over.
 */
export function planItem(
  doc: Project,
  item: RenderQueueItem,
  written: ReadonlySet<string> = new Set(),
): ItemPlan {
  const comp = doc.items.find((i) => i.id === item.comp);
  if (comp?.type !== 'composition')
    throw new EngineError(
      'not_found',
      `Composition "${item.comp}" no longer exists.`,
      'Re-add the queue item.',
    );
  // Every stored item passed these rules, but its composition may have changed since (comp.setSettings):
  // check again before a table of frames is sized by the range.
  const checked = checkRenderItem(item, comp);
  if (!checked.ok)
    throw new EngineError(
      checked.code,
      `Queue item "${item.id}" cannot be rendered: ${checked.message}`,
      `Remove the item and add it again with renderQueue.add. ${remedyText(checked.remediation)}`,
    );
  const { start, end } = frameSpan(item, comp)!;
  refuseFootageOverwrite(doc, item, { start, end }, `Queue item "${item.id}"`);
  refuseRewrite(item, { start, end }, written);
  // A plain loop: Array.from's callback took 1.4 s for the largest item the rules allow (a loop, 0.15 s).
  const frames = new Array<number>(end - start + 1);
  for (let i = 0; i < frames.length; i++) frames[i] = start + i;
  return {
    item,
    frameRate: comp.frameRate,
    frames,
    render: { scale: item.scale, transparent: item.alpha },
    frameSize: outputSize(comp, item.scale),
    picture: formatSpec(item.format).sound !== 'only',
    sound: carriesSound(item),
  };
}

/**
 * Throws bad_argument when `item` (frames `span`; `output`: its output, as spelt or with links resolved) would
 * write over a file in `written`, those earlier items of the same render wrote.
 */
export function refuseRewrite(
  item: Pick<RenderQueueItem, 'id' | 'output' | 'skipExisting'>,
  span: FrameSpan,
  written: ReadonlySet<string>,
): void {
  const rewritten = rewrittenFile(item, span, written) ?? rewrittenManifest(item, written);
  if (rewritten)
    throw new EngineError(
      'bad_argument',
      `Queue item "${item.id}" would write over "${rewritten}", which an earlier item of this render wrote; the item was not rendered, and that file is kept.`,
      (w) => `Give each item its own output (${w.newOutput}), or render this one on its own.`,
    );
}

/** Whether `item`'s output carries the composition's sound: its format has sound and the item did not turn it off. */
export function carriesSound(item: Pick<RenderQueueItem, 'format' | 'audio'>): boolean {
  const { sound } = formatSpec(item.format);
  // An audio-only format is nothing but sound; `audio: false` is refused for it (render-item-rules.ts).
  return sound === 'only' || (sound === 'muxed' && item.audio);
}
