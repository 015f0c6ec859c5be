/**
 * Rendered surfaces of layers whose content does not change with time, kept across frames by one renderer.
 * A layer surface holds the layer's content and effects in layer space, before its transform, opacity and
 * blending: a layer that only moves, turns or fades shows the same surface every frame, and re-rasterizing it
 * (a blurred shape, stroked text) was much of a frame's drawing (the 8-layer 1080p benchmark's blurred star:
 * 2.4 ms of a 6.4 ms frame, bench/compose.mjs). Kept per layer object: documents are immutable, so an edited
 * layer is a new object and never meets its old surface. Bounded in bytes and entries, least recently used out
 * first.
 */
import type { Layer } from '../engine/index.js';
import type { LayerSurface } from './layer-draw.js';
import type { Surface } from './surfaces.js';

/**
 * Entries kept at most, whatever their bytes: a long studio session makes new layer objects with every edit, and
 * small surfaces would otherwise pile up by the thousand under the byte budget.
 */
const MAX_ENTRIES = 256;

interface Entry {
  /** The pixel scale the surface was rendered at (the layer's device scale). */
  scale: number;
  surface: LayerSurface;
  /** Warnings its rendering gave (a missing glyph, an effect's), told again each time it is shown. */
  warnings: readonly string[];
  bytes: number;
}

/** Whether `value` holds an animated property anywhere (a property with keyframes). */
export function animated(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some(animated);
  const keys = (value as { keyframes?: unknown }).keyframes;
  if (Array.isArray(keys) && keys.length > 0) return true;
  return Object.values(value).some(animated);
}

/**
 * Whether the layer's surface is the same at every time: drawn from its own properties alone (solid, text,
 * shape; footage and precomps show other items that change with time or with edits of their own), and neither
 * they nor its effects' params are keyframed. Effects depend on nothing but their params.
 */
export function hasStaticContent(layer: Layer): boolean {
  let known = staticContent.get(layer);
  if (known === undefined) {
    const kind = layer.source.kind;
    known =
      (kind === 'solid' || kind === 'text' || kind === 'shape') &&
      !animated(layer.source) &&
      !animated(layer.effects);
    staticContent.set(layer, known);
  }
  return known;
}

/** Layers are immutable: what hasStaticContent found for one holds for its life. */
const staticContent = new WeakMap<Layer, boolean>();

export class LayerSurfaceCache {
  readonly #budget: number;
  readonly #release: (surface: Surface) => void;
  readonly #entries = new Map<Layer, Entry>();
  #bytes = 0;

  /**
   * `release` takes back the surface of an entry replaced or evicted (the renderer's pool: a layer whose scale
   * changes every frame then reuses one surface instead of allocating one a frame).
   */
  constructor(budgetBytes: number, release: (surface: Surface) => void) {
    this.#budget = budgetBytes;
    this.#release = release;
  }

  /** The surface kept for `layer` at pixel scale `scale`, its warnings told to `warn`; null when none is kept. */
  get(layer: Layer, scale: number, warn: (message: string) => void): LayerSurface | null {
    const entry = this.#entries.get(layer);
    if (!entry || entry.scale !== scale) return null;
    // Most recently used last.
    this.#entries.delete(layer);
    this.#entries.set(layer, entry);
    for (const w of entry.warnings) warn(w);
    return entry.surface;
  }

  /**
   * Keeps `surface` for `layer` at `scale`. Returns whether it was kept: a kept surface belongs to the cache
   * (its caller must not release or draw into it); one larger than half the budget is not kept.
   */
  put(layer: Layer, scale: number, surface: LayerSurface, warnings: readonly string[]): boolean {
    const { canvas } = surface.surface;
    const bytes = canvas.width * canvas.height * 4;
    if (bytes > this.#budget / 2) return false;
    this.#drop(layer);
    while (this.#bytes + bytes > this.#budget || this.#entries.size >= MAX_ENTRIES)
      this.#drop(this.#entries.keys().next().value!);
    this.#entries.set(layer, { scale, surface, warnings, bytes });
    this.#bytes += bytes;
    return true;
  }

  /** Forgets every surface (the renderer is disposed: they are not given back). */
  clear(): void {
    this.#entries.clear();
    this.#bytes = 0;
  }

  #drop(layer: Layer): void {
    const entry = this.#entries.get(layer);
    if (!entry) return;
    this.#entries.delete(layer);
    this.#bytes -= entry.bytes;
    this.#release(entry.surface.surface);
  }
}
