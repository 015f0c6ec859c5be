/**
 * Footage for one frame. Stills: read through the engine's ports (so confinement applies), decoded once with
 * sharp into a Skia canvas, and kept in an LRU cache bounded by decoded bytes. Failed reads are remembered
 * briefly so a render of a missing file does not re-read it on every frame. Video and image sequences: the
 * frames the layers show at this time (frame-plan.ts), decoded by the FrameStore.
 */
import { basename } from 'node:path';
import { createCanvas, ImageData, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import {
  EngineError,
  isEngineError,
  sequenceFrameProblem,
  type Composition,
  type FootageItem,
  type Layer,
  type Project,
} from '../engine/core.js';
import { fsError } from '../engine/errors.js';
import { reachableFootage } from './reachable-footage.js';
import { footageSourceTime, isMoving, shownFrames, visitFootageLayers } from './media/frame-plan.js';
import type { FrameStore } from './media/frame-store.js';
import { cutShort, missingFootage } from './media/missing-footage.js';
import { sharpModule } from './sharp-module.js';
import { imageHeader, tooManyPixels } from './image-pixels.js';
import { drawnUpright, uprightSize } from './still-orientation.js';

const FAILURE_TTL_MS = 1000;

interface Entry {
  canvas: Canvas;
  bytes: number;
}

/** The decoded frames of one moving footage item that a frame shows, by frame index, and its frame times. */
interface MovingFrames {
  timestamps: ArrayLike<number>;
  frames: ReadonlyMap<number, Canvas>;
}

/** Footage resolved for one frame, by item id; null when it must be drawn as a placeholder. */
export interface FrameFootage {
  stills: ReadonlyMap<string, Canvas | null>;
  moving: ReadonlyMap<string, MovingFrames | null>;
}

/** Frame blending's two frames around a footage time; `weight` is b's share (0..1). */
export interface FrameMix {
  a: Canvas;
  b: Canvas;
  weight: number;
}

/** Whether a layer mixes the frames around its footage time (layer.setTimeMap frameBlending). */
export const blendsFrames = (layer: Layer) => layer.time?.frameBlending === true;

/**
 * What a footage layer shows at layer time `lt`: a canvas, two to mix (frame blending), null for a placeholder
 * (missing footage), or 'nothing' (audio, or a time outside the footage without loop).
 */
export function footagePicture(
  footage: FrameFootage,
  item: FootageItem,
  layer: Layer,
  lt: number,
): Canvas | FrameMix | null | 'nothing' {
  if (item.media?.kind === 'audio') return 'nothing';
  if (!isMoving(item)) return footage.stills.get(item.id) ?? null;
  const source = footageSourceTime(layer, lt, item);
  if (source === null) return 'nothing';
  const moving = footage.moving.get(item.id);
  if (!moving) return null;
  const { a, b, weight } = shownFrames(layer, item, source, moving.timestamps, blendsFrames(layer));
  const [ca, cb] = [moving.frames.get(a), moving.frames.get(b)];
  if (!ca || !cb) return null;
  return weight > 0 && a !== b ? { a: ca, b: cb, weight } : ca;
}

export class FootageCache {
  readonly #readFile: (path: string) => Promise<Buffer>;
  readonly #budget: number;
  #entries = new Map<string, Entry>();
  #failures = new Map<string, { at: number; error: EngineError }>();
  #bytes = 0;

  readonly #store: FrameStore;

  constructor(readFile: (path: string) => Promise<Buffer>, budgetBytes: number, store: FrameStore) {
    this.#readFile = readFile;
    this.#budget = budgetBytes;
    this.#store = store;
  }

  /** Marks a frame in progress until the returned release (after drawing): see FrameStore.hold. */
  hold(): () => void {
    return this.#store.hold();
  }

  /**
   * Decodes every still reachable from `comp` (through precomps) and the frames of video and sequences its
   * layers show at comp time `time` (but for `hidden`'s: a footage plate, decoded apart). The result holds the
   * canvases for this frame even if caches evict them.
   */
  async prepare(
    doc: Project,
    comp: Composition,
    time: number,
    missing: 'placeholder' | 'fail',
    warn: (message: string) => void,
    scrub = false,
    hidden?: Layer,
  ): Promise<FrameFootage> {
    const stills = new Map<string, Canvas | null>();
    const moving = new Map<string, MovingFrames | null>();
    const failed = (item: FootageItem, err: unknown) => {
      const error = isEngineError(err) ? err : fsError(err, item.path, 'read');
      if (missing === 'fail') throw error;
      // The remedy too: a preview is often the first place an agent meets a moved or changed file.
      warn(`${error.message} A placeholder is shown instead. ${error.remediation}`);
    };
    for (const item of reachableFootage(doc, [comp.id])) {
      // Sound only: a preview draws nothing of it, but says when its file is gone (the mix of a render with
      // sound fails; an image sequence has no sound and renders, so the warning must not say every render fails).
      if (item.media?.kind === 'audio' && missing === 'placeholder')
        await this.#store.readable(item).catch((err: unknown) => {
          const error = isEngineError(err) ? err : fsError(err, item.path, 'read');
          // A renderer that opens no media files (no session behind it) cannot tell: nothing to say.
          if (error.code !== 'not_configured')
            warn(
              `${error.message} It is sound only: previews show nothing of it, and a render with sound (MP4, MOV, WebM, WAV, MP3 or M4A) fails on it. ${error.remediation}`,
            );
        });
      if (isMoving(item) || item.media?.kind === 'audio') continue;
      try {
        stills.set(item.id, await this.#load(item));
      } catch (err) {
        failed(item, err);
        stills.set(item.id, null);
      }
    }
    for (const [item, times] of movingTimes(doc, comp, time, hidden)) {
      try {
        const timestamps = await this.#store.timestamps(item);
        const needed = times.flatMap(({ t, blend, layer }) => {
          const { a, b } = shownFrames(layer, item, t, timestamps, blend);
          return a === b ? [a] : [a, b];
        });
        const indices = [...new Set(needed)].sort((a, b) => a - b);
        const frames = new Map<number, Canvas>();
        for (const i of indices) frames.set(i, await this.#store.frame(item, i, scrub));
        // A frame past where the file stops decoding is its last one, held: a final render fails (a damaged
        // file rendered "done" with a frozen tail would be a wrong video nobody was told of); a preview says so.
        const damage = cutShort(item, timestamps, indices.at(-1)!, this.#store.decodedEnd(item));
        if (damage && missing === 'fail') throw damage;
        if (damage) warn(`${damage.message} Its last frame that decodes is shown.`);
        moving.set(item.id, { timestamps, frames });
      } catch (err) {
        failed(item, err);
        moving.set(item.id, null);
      }
    }
    return { stills, moving };
  }

  async #load(item: FootageItem): Promise<Canvas> {
    const hit = this.#entries.get(item.path);
    if (hit) {
      // Refresh its LRU position.
      this.#entries.delete(item.path);
      this.#entries.set(item.path, hit);
      return hit.canvas;
    }
    const failed = this.#failures.get(item.path);
    if (failed && Date.now() - failed.at < FAILURE_TTL_MS) throw failed.error;
    try {
      const canvas = await decode(item, await this.#read(item));
      this.#insert(item.path, { canvas, bytes: canvas.width * canvas.height * 4 });
      this.#failures.delete(item.path);
      return canvas;
    } catch (err) {
      const error = isEngineError(err) ? err : fsError(err, item.path, 'read');
      this.#failures.set(item.path, { at: Date.now(), error });
      throw error;
    }
  }

  async #read(item: FootageItem): Promise<Buffer> {
    try {
      return await this.#readFile(item.path);
    } catch (err) {
      // Confinement refusals keep their own code; anything else reads as a missing file.
      if (isEngineError(err) && (err.code === 'path_outside_roots' || err.code === 'refused_while_confined'))
        throw err;
      throw missingFootage(item);
    }
  }

  #insert(key: string, entry: Entry): void {
    this.#entries.set(key, entry);
    this.#bytes += entry.bytes;
    for (const [k, e] of this.#entries) {
      if (this.#bytes <= this.#budget || this.#entries.size <= 1) break;
      this.#entries.delete(k);
      this.#bytes -= e.bytes;
    }
  }

  clear(): void {
    this.#store.close();
    this.#entries.clear();
    this.#failures.clear();
    this.#bytes = 0;
  }
}

/** The footage times each moving item is shown at in `comp` at `time` (precomps included; `hidden` not). */
function movingTimes(
  doc: Project,
  comp: Composition,
  time: number,
  hidden?: Layer,
): Map<FootageItem, Array<{ t: number; blend: boolean; layer: Layer }>> {
  const out = new Map<FootageItem, Array<{ t: number; blend: boolean; layer: Layer }>>();
  if (!doc.items.some((i) => i.type === 'footage' && isMoving(i))) return out;
  visitFootageLayers(doc, comp, time, (item, layer, lt) => {
    if (!isMoving(item) || layer === hidden) return;
    const t = footageSourceTime(layer, lt, item);
    if (t === null) return;
    const list = out.get(item) ?? [];
    list.push({ t, blend: blendsFrames(layer), layer });
    out.set(item, list);
  });
  return out;
}

/** Decodes an image file (a still, or one file of an image sequence: `path`, which errors name) into a canvas. */
export async function decode(item: FootageItem, data: Buffer, path = item.path): Promise<Canvas> {
  // sharp throws at once on an empty buffer (not through the promises caught below), and that error was read
  // as the item's file being unreadable: a 0-byte frame of a render that did not finish failed "Cannot read
  // f_0001.png (unknown error)", naming the first frame and no remedy.
  if (data.length === 0) throw emptyImage(item, path);
  const sharp = await sharpModule();
  // Its header first (sharp reads no pixels for it): whether its EXIF orientation is applied, and for a
  // sequence frame whether it may be decoded at all. The import refuses sequences over the moving-footage limit,
  // but a project file may say anything (a 64x48 sequence whose frames are 16000x16000 took a preview to 3 GB),
  // and a frame of another size than the sequence's would be squeezed into it.
  const meta = await imageHeader(data).catch(() => null);
  const autoOrient = meta?.width && meta.height ? drawnUpright(item, meta) : true;
  if (item.media?.kind === 'sequence' && meta?.width && meta.height) {
    const shown = autoOrient ? uprightSize(meta) : meta;
    const problem = sequenceFrameProblem(item, path, shown.width, shown.height);
    if (problem) throw problem;
  }
  // Past sharp's pixel limit its decode fails: say so, not that the file is no image.
  const huge = meta?.width && meta.height ? tooManyPixels(path, meta.width, meta.height) : null;
  if (huge) throw huge;
  // A huge still is decoded smaller (drawn at its full size in layer units all the same, layer-draw.ts): a
  // 16000x16000 PNG of 5 MB took a preview to 3.1 GB (sharp's buffer, Skia's canvas and libvips' own).
  const size = meta?.width && meta.height ? (autoOrient ? uprightSize(meta) : meta) : null;
  const drawn = size && item.media?.kind !== 'sequence' ? stillDecodeSize(size.width, size.height) : null;
  let raw: { data: Buffer; info: { width: number; height: number } };
  try {
    // Always 8-bit sRGB RGBA, whatever came in (greyscale, 16-bit, CMYK, palette).
    raw = await sharp(data, { animated: false, autoOrient })
      .resize(drawn ? { ...drawn, fit: 'fill' } : undefined)
      .toColourspace('srgb')
      .ensureAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    if (raw.data.length !== raw.info.width * raw.info.height * 4) throw new Error('not 8-bit RGBA');
  } catch {
    // The file is there: what is wrong is its content (inspect --strict and the import say unsupported_format too).
    throw new EngineError(
      'unsupported_format',
      path === item.path
        ? `Footage "${item.name}" (${item.id}) at "${item.path}" is not a readable image.`
        : `Frame "${path}" of the image sequence "${item.name}" (${item.id}) is not a readable image.`,
      path === item.path && !item.media
        ? 'Replace the file with a valid PNG, JPEG, WebP, GIF or SVG; a video or sound file is footage once ' +
            'imported (file.import, or footage.relink to it), which records what it holds.'
        : 'Replace the file with a valid PNG, JPEG, WebP, GIF or SVG, or re-import it.',
    );
  }
  const { width, height } = raw.info;
  const canvas = createCanvas(width, height);
  const pixels = new Uint8ClampedArray(raw.data.buffer, raw.data.byteOffset, raw.data.byteLength);
  // putImageData takes straight alpha, which is what sharp gives; Skia premultiplies on the way in.
  canvas.getContext('2d').putImageData(new ImageData(pixels, width, height), 0, 0);
  return canvas;
}

/** The error for an image file of 0 bytes (a still, or the sequence frame at `path`). */
function emptyImage(item: FootageItem, path: string): EngineError {
  const what =
    path === item.path && item.media?.kind !== 'sequence'
      ? `Footage "${item.name}" (${item.id}) at "${path}"`
      : `Frame "${path}" of the image sequence "${item.name}" (${item.id})`;
  return new EngineError(
    'unsupported_format',
    `${what} is empty (0 bytes): nothing was written to it, or a render or copy of it did not finish.`,
    `Render, copy or export ${basename(path)} again, in full, then render again.`,
  );
}

/**
 * The most pixels a still is decoded with: 2^25 (33.5 MP, 8K UHD's 7680x4320 whole), 128 MB of canvas. Larger
 * stills keep their aspect, decoded at the size that holds this many pixels (a 16000x16000 one at 5793x5793); a
 * layer shows them at their full size, so their detail is lost only where one is drawn larger than that.
 */
export const MAX_STILL_PIXELS = 2 ** 25;

/** The size a still of `width` x `height` is decoded at, or null to decode it as it is. */
export function stillDecodeSize(width: number, height: number): { width: number; height: number } | null {
  if (width * height <= MAX_STILL_PIXELS) return null;
  const k = Math.sqrt(MAX_STILL_PIXELS / (width * height));
  return { width: Math.max(1, Math.floor(width * k)), height: Math.max(1, Math.floor(height * k)) };
}

/** A visible stand-in for missing footage: a grey/magenta checkerboard with a red X, in layer units. */
export function drawPlaceholder(ctx: SKRSContext2D, w: number, h: number): void {
  const cell = Math.max(8, Math.min(w, h) / 8);
  ctx.fillStyle = '#808080';
  ctx.fillRect(0, 0, w, h);
  ctx.fillStyle = '#ff00ff';
  for (let y = 0, row = 0; y < h; y += cell, row++)
    for (let x = (row % 2) * cell; x < w; x += 2 * cell)
      ctx.fillRect(x, y, Math.min(cell, w - x), Math.min(cell, h - y));
  ctx.strokeStyle = '#ff0000';
  ctx.lineWidth = Math.max(2, Math.min(w, h) / 40);
  ctx.beginPath();
  ctx.moveTo(0, 0);
  ctx.lineTo(w, h);
  ctx.moveTo(w, 0);
  ctx.lineTo(0, h);
  ctx.stroke();
  ctx.strokeRect(0, 0, w, h);
}
