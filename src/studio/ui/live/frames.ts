/**
 * Frames from the app's compositor (GET FRAME_PATH, raw straight-alpha RGBA) turned into ImageBitmaps, kept in a
 * bounded LRU cache keyed by revision + composition + frame + scale + transparency. Playback paints from this
 * cache; a frame of an older revision is never shown for a newer one, because the revision is part of the key.
 */
import { FRAME_PATH, FrameHeaders, type ErrorBody } from '../../protocol.js';
import { RpcError } from './rpc-error.js';

export interface FrameRequest {
  comp: string;
  frame: number;
  scale: number;
  transparent: boolean;
}

export interface Frame extends FrameRequest {
  bitmap: ImageBitmap;
  /** The document revision the app drew it from. */
  revision: number;
  width: number;
  height: number;
  warnings: string[];
  renderMs: number;
  /** When it arrived (performance.now()). */
  fetchedAt: number;
}

const DEFAULT_BUDGET_BYTES = 512 * 1024 * 1024;
/**
 * A frame that came with warnings (a placeholder for footage that could not be read) is asked for again once it
 * is this old: the file may be back, with no edit to change the revision. Playback still paints it meanwhile.
 */
export const WARNED_FRAME_MS = 2000;

export const frameKey = (revision: number, r: FrameRequest) =>
  `${revision}|${r.comp}|${r.frame}|${r.scale}|${r.transparent ? 't' : 'o'}`;

export class FrameCache {
  // A Map iterates in insertion order: re-inserting on every hit makes the first entry the least recently used.
  readonly #entries = new Map<string, Frame>();
  readonly #budget: number;
  #bytes = 0;

  constructor(budgetBytes = DEFAULT_BUDGET_BYTES) {
    this.#budget = budgetBytes;
  }

  get(key: string): Frame | undefined {
    const frame = this.#entries.get(key);
    if (frame) {
      this.#entries.delete(key);
      this.#entries.set(key, frame);
    }
    return frame;
  }

  has(key: string): boolean {
    return this.#entries.has(key);
  }

  put(frame: Frame): void {
    const key = frameKey(frame.revision, frame);
    this.#remove(key);
    this.#entries.set(key, frame);
    this.#bytes += frame.width * frame.height * 4;
    for (const [oldest] of this.#entries) {
      if (this.#bytes <= this.#budget || this.#entries.size <= 1) break;
      this.#remove(oldest);
    }
  }

  /** Frees every frame: files on disk changed (footage gone or back), so no drawn frame can be trusted. */
  clear(): void {
    for (const key of [...this.#entries.keys()]) this.#remove(key);
  }

  /** Frees the frames of revisions before `revision`: after an edit they can never be shown again. */
  dropBefore(revision: number): void {
    for (const [key, frame] of this.#entries) if (frame.revision < revision) this.#remove(key);
  }

  #remove(key: string): void {
    const frame = this.#entries.get(key);
    if (!frame) return;
    this.#entries.delete(key);
    this.#bytes -= frame.width * frame.height * 4;
    frame.bitmap.close();
  }
}

/** Loads frames over HTTP into a cache; concurrent loads of the same frame share one request. */
export class FrameSource {
  readonly cache: FrameCache;
  readonly #inFlight = new Map<string, Promise<Frame>>();
  /** Recent fetch times, to know how far ahead playback must ask for frames. */
  #avgFetchMs = 40;

  constructor(cache = new FrameCache()) {
    this.cache = cache;
  }

  get averageFetchMs(): number {
    return this.#avgFetchMs;
  }

  get inFlight(): number {
    return this.#inFlight.size;
  }

  isLoading(revision: number, request: FrameRequest): boolean {
    return this.#inFlight.has(frameKey(revision, request));
  }

  /** The frame for `revision` from the cache, or fetched (the answer may carry a newer revision). */
  load(revision: number, request: FrameRequest): Promise<Frame> {
    const key = frameKey(revision, request);
    const cached = this.cache.get(key);
    const recheck =
      cached && cached.warnings.length > 0 && performance.now() - cached.fetchedAt > WARNED_FRAME_MS;
    if (cached && !recheck) return Promise.resolve(cached);
    let pending = this.#inFlight.get(key);
    if (!pending) {
      pending = this.#fetch(request).finally(() => this.#inFlight.delete(key));
      this.#inFlight.set(key, pending);
    }
    return pending;
  }

  async #fetch(request: FrameRequest): Promise<Frame> {
    const started = performance.now();
    const url = new URL(FRAME_PATH, location.href);
    url.searchParams.set('comp', request.comp);
    url.searchParams.set('frame', String(request.frame));
    url.searchParams.set('scale', String(request.scale));
    if (request.transparent) url.searchParams.set('transparent', '1');
    const res = await fetch(url, { cache: 'no-store', credentials: 'same-origin' });
    if (!res.ok) throw new RpcError(await errorOf(res));
    const width = Number(res.headers.get(FrameHeaders.width));
    const height = Number(res.headers.get(FrameHeaders.height));
    const pixels = new Uint8ClampedArray(await res.arrayBuffer());
    if (!(width > 0 && height > 0) || pixels.length !== width * height * 4) {
      throw new RpcError({
        code: 'tool_failed',
        message: `The app sent a frame of ${pixels.length} bytes for ${width}x${height}.`,
        remediation: 'Reload the page; if it persists, the app and the page are of different versions.',
      });
    }
    // ImageData is straight (non-premultiplied) RGBA, exactly the frame endpoint's format.
    const bitmap = await createImageBitmap(new ImageData(pixels, width, height));
    const frame: Frame = {
      ...request,
      bitmap,
      revision: Number(res.headers.get(FrameHeaders.revision) ?? 0),
      width,
      height,
      warnings: parseWarnings(res.headers.get(FrameHeaders.warnings)),
      renderMs: Number(res.headers.get(FrameHeaders.renderMs) ?? 0),
      fetchedAt: performance.now(),
    };
    this.#avgFetchMs = this.#avgFetchMs * 0.8 + (performance.now() - started) * 0.2;
    this.cache.put(frame);
    return frame;
  }
}

/** The app's JSON error body of a failed HTTP answer (`what`: what was asked, for a body that is not JSON). */
export async function errorOf(res: Response, what = 'a frame'): Promise<ErrorBody> {
  try {
    const body = (await res.json()) as Partial<ErrorBody>;
    if (typeof body.code === 'string' && typeof body.message === 'string') {
      return { code: body.code, message: body.message, remediation: body.remediation ?? '' };
    }
  } catch {
    // Not JSON: fall through to the status line.
  }
  return {
    code: 'tool_failed',
    message: `The app answered ${res.status} for ${what}.`,
    remediation: 'Check the app is still running, then reload the page.',
  };
}

export function parseWarnings(header: string | null): string[] {
  if (!header) return [];
  try {
    const list: unknown = JSON.parse(decodeURIComponent(header));
    return Array.isArray(list) ? list.map(String) : [];
  } catch {
    return [];
  }
}
