/**
 * The contract between the compositor and its users (frame.preview, frame.save, the render queue's workers).
 * Kept apart from the implementation so the render queue and the MCP server build against a stable shape.
 */
import type { Project, StillEncoding } from '../engine/index.js';
import type { MediaAccess } from './media/frame-store.js';
import type { YuvMatrix } from './yuv/i420.js';

export interface RenderOptions {
  /** Output size factor (1 = comp size). */
  scale?: number;
  /** false flattens onto the comp background colour; true keeps the background transparent. */
  transparent?: boolean;
  /**
   * Missing or unreadable footage: 'placeholder' draws a visible placeholder and adds a warning (previews);
   * 'fail' throws EngineError('no_such_file') naming the item and path (final renders).
   */
  missingFootage: 'placeholder' | 'fail';
  /**
   * Stops the frame with `cancelled`. The preview worker (preview/) stops at once, mid-frame; a renderer on the
   * calling thread checks it before it starts drawing (drawing itself is synchronous).
   */
  signal?: AbortSignal;
  /**
   * Video frames that would need a seek may come from the renderer's scrub cache (media/scrub-cache.ts): the
   * right frame, JPEG-compressed. For previews only; final renders and stills leave it unset.
   */
  scrubCache?: boolean;
}

/**
 * Where the I420 frame of a `width` x `height` frame goes (a buffer of `i420Size(width, height).bytes`: odd sizes
 * are padded to even, yuv/i420.ts), and with which matrix.
 */
export type I420Target = (width: number, height: number) => { buffer: Uint8Array; matrix: YuvMatrix };

export interface RenderedFrame {
  width: number;
  height: number;
  /**
   * RGBA pixels, width*height*4 bytes, row-major. The caller's own (a renderer never reuses it): a render worker
   * hands it to the encoder without a copy.
   */
  rgba: Buffer;
  /** true when rgba is premultiplied by alpha (Skia's native form); encoders un-premultiply for output. */
  premultiplied: boolean;
  warnings: string[];
}

/** A frame encoded as an image file (renderStill). */
export interface EncodedFrame {
  width: number;
  height: number;
  /** The PNG, JPEG or WebP file's bytes. */
  bytes: Buffer;
  warnings: string[];
}

export interface FrameRenderer {
  /** Renders composition `compId` of `doc` at `time` seconds (comp time). Throws EngineError on bad input. */
  renderFrame(doc: Project, compId: string, time: number, options: RenderOptions): Promise<RenderedFrame>;
  /**
   * Renders and encodes one frame where it is drawn: a preview worker then sends back the image file, not the
   * frame's pixels (8 MB at 1080p, copied to cross threads).
   */
  renderStill(
    doc: Project,
    compId: string,
    time: number,
    options: RenderOptions,
    encoding: StillEncoding,
  ): Promise<EncodedFrame>;
  /**
   * Renders an opaque frame as I420 (limited range) into the buffer `target` gives for its size, converted with
   * the matrix it names. A frame whose bottom is a footage plate (plate.ts) is composed in YUV over the clip's
   * own samples; any other is rendered and converted. `plate` says which it was.
   */
  renderFrameI420?(
    doc: Project,
    compId: string,
    time: number,
    options: RenderOptions,
    target: I420Target,
  ): Promise<{ width: number; height: number; warnings: string[]; plate: boolean }>;
  /** Frees cached footage and surfaces. */
  dispose(): void;
  /**
   * dispose, for a process about to exit: resolves once every thread and decoder child it started has ended
   * (a child left to exit with the process would stay a zombie where nothing reaps orphans). Optional: a
   * renderer on the calling thread has nothing more to wait for.
   */
  close?(): Promise<void>;
}

export interface FrameRendererOptions {
  /** How footage bytes are read (through the engine's ports, so confinement applies). */
  readFile(path: string): Promise<Buffer>;
  /** Decoded-footage cache budget in bytes. */
  footageCacheBytes?: number;
  /** How video footage is opened and decoded (ffmpeg children); without it video footage is missing. */
  media?: MediaAccess;
  /** Decoded video-frame cache budget in bytes. */
  frameCacheBytes?: number;
  /** Scrub cache budget in bytes (JPEG frames for previews' seeks); 0 or unset: none. */
  scrubCacheBytes?: number;
}
