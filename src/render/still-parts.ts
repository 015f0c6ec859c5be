/**
 * The composed graphics of a plate's rectangles (graphics-rects.ts) that are the same at every time, kept from
 * frame to frame: a lower third, a logo or a title over a clip is composed and read back once per render, not
 * once per frame; only the blend over each new video frame is left (yuv/over-plate.ts). A rectangle is kept when
 * every layer painting in it draws still (drawsStill); the next frame finds it again when the same layers, and
 * only they, paint in the same rectangle.
 *
 * Kept for one document and one composition at a time (a render's snapshot, or the studio's current document):
 * any other drops everything, so nothing an edit changed (a layer, a font, the comp) can be shown from before.
 */
import type { Composition, Layer, Project } from '../engine/index.js';
import { shownFootage } from '../engine/core.js';
import type { PaintedRect } from './graphics-rects.js';
import { animated, hasStaticContent } from './layer-cache.js';

/** Rectangles kept at most, and their bytes (a 1080p lower third is 1.5 MB). */
const MAX_ENTRIES = 16;
const BUDGET_BYTES = 32 * 2 ** 20;

interface Entry {
  rgba: Uint8Array;
  /** Warnings its composition gave (a missing glyph), told again each time it is used. */
  warnings: readonly string[];
}

export class StillParts {
  #doc: Project | null = null;
  #comp: Composition | null = null;
  readonly #entries = new Map<string, Entry>();
  #bytes = 0;
  readonly #still = new Map<Layer, boolean>();

  /** The kept pixels of `rect` in `comp` of `doc`, its warnings told to `warn`; null when none are kept. */
  get(
    doc: Project,
    comp: Composition,
    rect: PaintedRect,
    warn: (message: string) => void,
  ): Uint8Array | null {
    if (doc !== this.#doc || comp !== this.#comp) return null;
    const key = keyOf(rect);
    const entry = this.#entries.get(key);
    if (!entry) return null;
    // Most recently used last.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    for (const w of entry.warnings) warn(w);
    return entry.rgba;
  }

  /**
   * Keeps `rgba`, the composed pixels of `rect` (which it must not be changed after), when every layer in it
   * draws still; `warnings` are those its composition gave.
   */
  put(
    doc: Project,
    comp: Composition,
    rect: PaintedRect,
    rgba: Uint8Array,
    warnings: readonly string[],
  ): void {
    if (doc !== this.#doc || comp !== this.#comp) {
      this.clear();
      this.#doc = doc;
      this.#comp = comp;
    }
    if (rgba.byteLength > BUDGET_BYTES / 2 || !rect.layers.every((l) => this.#drawsStill(doc, comp, l)))
      return;
    const key = keyOf(rect);
    this.#drop(key);
    while (this.#bytes + rgba.byteLength > BUDGET_BYTES || this.#entries.size >= MAX_ENTRIES)
      this.#drop(this.#entries.keys().next().value!);
    this.#entries.set(key, { rgba, warnings });
    this.#bytes += rgba.byteLength;
  }

  clear(): void {
    this.#entries.clear();
    this.#still.clear();
    this.#bytes = 0;
    this.#doc = null;
    this.#comp = null;
  }

  #drawsStill(doc: Project, comp: Composition, layer: Layer): boolean {
    let known = this.#still.get(layer);
    if (known === undefined) {
      known = drawsStill(doc, comp, layer);
      this.#still.set(layer, known);
    }
    return known;
  }

  #drop(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#bytes -= entry.rgba.byteLength;
  }
}

/** The rectangle and its layers in order (layer ids are unique within the one composition kept). */
function keyOf(rect: PaintedRect): string {
  return `${rect.x},${rect.y},${rect.width},${rect.height}:${rect.layers.map((l) => l.id).join('/')}`;
}

/**
 * Whether `layer` of `comp` paints the same pixels at every time it is shown: content that does not change
 * (a solid, text or shape with nothing keyframed in it or its effects, layer-cache.ts; or a still image and
 * unkeyframed effects: a render worker is given its stills' bytes once, with the job), a transform without keyframes (opacity included), parents whose transforms
 * have none either, and no track matte (its source may move).
 */
export function drawsStill(doc: Project, comp: Composition, layer: Layer): boolean {
  const content = hasStaticContent(layer) || (stillImage(doc, layer) && !animated(layer.effects));
  if (!content || layer.trackMatte || animated(layer.transform)) return false;
  const seen = new Set<Layer>([layer]);
  for (let id = layer.parent; id !== null;) {
    const parent = comp.layers.find((l) => l.id === id);
    if (!parent || seen.has(parent) || animated(parent.transform)) return false;
    seen.add(parent);
    id = parent.parent;
  }
  return true;
}

/** A footage layer showing a still image (a logo, a watermark): the same picture at every time. */
function stillImage(doc: Project, layer: Layer): boolean {
  const item = shownFootage(doc, layer);
  return !!item && (item.media === undefined || item.media.kind === 'still');
}
