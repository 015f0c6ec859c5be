/**
 * Footage stills: read through the engine's ports (so confinement applies), decoded once with sharp into a
 * Skia canvas, and kept in an LRU cache bounded by decoded bytes. Failed reads are remembered briefly so a
 * render of a missing file does not re-read it on every frame.
 */
import { createCanvas, ImageData, type Canvas, type SKRSContext2D } from '@napi-rs/canvas';
import {
  EngineError,
  isEngineError,
  type Composition,
  type FootageItem,
  type Project,
} from '../engine/index.js';
import { fsError } from '../engine/errors.js';
import { hasPicture, reachableFootage } from './reachable-footage.js';

const FAILURE_TTL_MS = 1000;

interface Entry {
  canvas: Canvas;
  bytes: number;
}

/** Footage resolved for one frame: a canvas, or null when it must be drawn as a placeholder. */
export type FrameFootage = ReadonlyMap<string, Canvas | null>;

export class FootageCache {
  readonly #readFile: (path: string) => Promise<Buffer>;
  readonly #budget: number;
  #entries = new Map<string, Entry>();
  #failures = new Map<string, { at: number; error: EngineError }>();
  #bytes = 0;

  constructor(readFile: (path: string) => Promise<Buffer>, budgetBytes: number) {
    this.#readFile = readFile;
    this.#budget = budgetBytes;
  }

  /**
   * Decodes every footage item reachable from `comp` (through precomps). The returned map holds the
   * canvases for this frame even if the cache evicts them meanwhile.
   */
  async prepare(
    doc: Project,
    comp: Composition,
    missing: 'placeholder' | 'fail',
    warn: (message: string) => void,
  ): Promise<FrameFootage> {
    const out = new Map<string, Canvas | null>();
    for (const item of reachableFootage(doc, [comp.id])) {
      if (!hasPicture(item)) continue;
      try {
        out.set(item.id, await this.#load(item));
      } catch (err) {
        const error = err as EngineError;
        if (missing === 'fail') throw error;
        warn(`${error.message} A placeholder is shown instead.`);
        out.set(item.id, null);
      }
    }
    return out;
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
      throw new EngineError(
        'no_such_file',
        `Footage "${item.name}" (${item.id}) cannot be read from "${item.path}".`,
        'Put the file back at that path, or re-import it with file.import and relink the layer.',
      );
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
    this.#entries.clear();
    this.#failures.clear();
    this.#bytes = 0;
  }
}

async function decode(item: FootageItem, data: Buffer): Promise<Canvas> {
  const { default: sharp } = await import('sharp');
  let raw: { data: Buffer; info: { width: number; height: number } };
  try {
    // Always 8-bit sRGB RGBA, whatever came in (greyscale, 16-bit, CMYK, palette).
    raw = await sharp(data, { animated: false })
      .toColourspace('srgb')
      .ensureAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    if (raw.data.length !== raw.info.width * raw.info.height * 4) throw new Error('not 8-bit RGBA');
  } catch {
    throw new EngineError(
      'no_such_file',
      `Footage "${item.name}" (${item.id}) at "${item.path}" is not a readable image.`,
      'Replace the file with a valid PNG, JPEG, WebP, GIF or SVG, or re-import it.',
    );
  }
  const { width, height } = raw.info;
  const canvas = createCanvas(width, height);
  const pixels = new Uint8ClampedArray(raw.data.buffer, raw.data.byteOffset, raw.data.byteLength);
  // putImageData takes straight alpha, which is what sharp gives; Skia premultiplies on the way in.
  canvas.getContext('2d').putImageData(new ImageData(pixels, width, height), 0, 0);
  return canvas;
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
