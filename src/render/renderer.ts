/** createFrameRenderer: the FrameRenderer of types.ts on Skia. One per thread; safe to call concurrently. */
import { createCanvas } from '@napi-rs/canvas';
import { EngineError, type Composition, type Layer, type Project } from '../engine/core.js';
import { backdropPlan, fillBackdrop } from './backdrop.js';
import { composeComp, drawnLayers } from './compositor.js';
import type { ComposeEnv } from './env.js';
import { ensureFonts } from './fonts.js';
import { encodeFrame } from './encode.js';
import { decode, FootageCache } from './footage.js';
import { FrameStore, type MediaAccess } from './media/frame-store.js';
import { scaling, translate } from '../engine/affine.js';
import { SurfacePool } from './surfaces.js';
import { outputSize } from './output-size.js';
import { NestedFrames } from './nesting.js';
import { LayerSurfaceCache } from './layer-cache.js';
import { throwIfCancelled } from './cancel.js';
import { cutShort } from './media/missing-footage.js';
import { shownFrames } from './media/frame-plan.js';
import type { FrameFootage } from './footage.js';
import { findPlate, type Plate } from './plate.js';
import { frameToI420 } from './yuv/i420.js';
import { overPlate, plateTransform, type GraphicsRect } from './yuv/over-plate.js';
import { graphicsRects, type FrameRect, type PaintedRect } from './graphics-rects.js';
import { StillParts } from './still-parts.js';
import type {
  FrameRenderer,
  FrameRendererOptions,
  I420Target,
  RenderedFrame,
  RenderOptions,
} from './types.js';

const DEFAULT_FOOTAGE_CACHE = 256 * 1024 * 1024;
/** Decoded video frames kept per renderer: a dozen 1080p frames, enough for layers sharing a clip. */
const DEFAULT_FRAME_CACHE = 96 * 1024 * 1024;
/** Surfaces of static layers kept across frames (layer-cache.ts): a 4K full-frame layer is 33 MB. */
const LAYER_CACHE_BYTES = 64 * 1024 * 1024;

/** Without media access, video footage reads as missing (stills and sequences need only readFile). */
function noMedia(readFile: (path: string) => Promise<Buffer>): MediaAccess {
  return {
    ffmpeg: null,
    ffprobe: null,
    readFile,
    open: () =>
      Promise.reject(
        new EngineError(
          'not_configured',
          'This renderer cannot open video files.',
          'Render through a session.',
        ),
      ),
  };
}

function findComposition(doc: Project, compId: string): Composition {
  const comp = doc.items.find((i): i is Composition => i.type === 'composition' && i.id === compId);
  if (!comp) {
    throw new EngineError(
      'not_found',
      `No composition "${compId}".`,
      (w) => `Pass a composition id; ${w.inspect} lists them.`,
    );
  }
  return comp;
}

/**
 * Creates a renderer. Registers the bundled fonts for this thread (idempotent), and keeps a footage cache
 * and a pool of scratch surfaces until `dispose`.
 */
export function createFrameRenderer(options: FrameRendererOptions): FrameRenderer {
  ensureFonts();
  const pool = new SurfacePool();
  const store = new FrameStore(
    options.media ?? noMedia(options.readFile),
    options.frameCacheBytes ?? DEFAULT_FRAME_CACHE,
    decode,
    options.scrubCacheBytes ?? 0,
  );
  const footage = new FootageCache(
    options.readFile,
    options.footageCacheBytes ?? DEFAULT_FOOTAGE_CACHE,
    store,
  );
  const layerCache = new LayerSurfaceCache(LAYER_CACHE_BYTES, (s) => pool.release(s));
  const stillParts = new StillParts();
  const measure = createCanvas(1, 1).getContext('2d');
  measure.lang = 'en';

  const renderer: FrameRenderer = {
    async renderFrame(
      doc: Project,
      compId: string,
      time: number,
      opts: RenderOptions,
    ): Promise<RenderedFrame> {
      const comp = findComposition(doc, compId);
      const { width, height } = outputSize(comp, opts.scale ?? 1);
      if (!Number.isFinite(time))
        throw new EngineError('bad_argument', `Time ${time} is not a number.`, 'Pass seconds.');
      const warnings = new Set<string>();
      const warn = (message: string) => void warnings.add(message);
      const release = footage.hold();
      try {
        return await drawFrame(doc, comp, time, width, height, opts, warnings, warn);
      } finally {
        release();
      }
    },
    async renderFrameI420(doc, compId, time, opts, target) {
      const comp = findComposition(doc, compId);
      const { width, height } = outputSize(comp, opts.scale ?? 1);
      // Previews' placeholders and transparent frames take the RGB path.
      const plate =
        opts.missingFootage === 'fail' && !opts.transparent && Number.isFinite(time)
          ? findPlate(doc, comp, time, width, height)
          : null;
      if (!plate) {
        const frame = await renderer.renderFrame(doc, compId, time, opts);
        frameToI420(frame, target);
        return { width: frame.width, height: frame.height, warnings: frame.warnings, plate: false };
      }
      const warnings = new Set<string>();
      const release = footage.hold();
      try {
        await drawOverPlate(doc, comp, time, plate, opts, (m) => void warnings.add(m), target);
      } finally {
        release();
      }
      return { width, height, warnings: [...warnings], plate: true };
    },
    async renderStill(doc, compId, time, opts, encoding) {
      const frame = await renderer.renderFrame(doc, compId, time, opts);
      const bytes = await encodeFrame(frame.rgba, frame.width, frame.height, frame.premultiplied, encoding);
      return { width: frame.width, height: frame.height, bytes, warnings: frame.warnings };
    },
    dispose() {
      pool.clear();
      footage.clear();
      layerCache.clear();
      stillParts.clear();
    },
  };
  return renderer;

  /**
   * The layers above a footage plate composed on transparent black, then over the clip's own samples in YUV:
   * only the rectangles they can have painted (graphics-rects.ts) are composed, read back and blended. The
   * plate's frame is asked after the other footage, and used before anything else is awaited: its buffer is the
   * decoder's again once the next frame is read.
   */
  async function drawOverPlate(
    doc: Project,
    comp: Composition,
    time: number,
    plate: Plate,
    opts: RenderOptions,
    warn: (message: string) => void,
    target: I420Target,
  ): Promise<void> {
    const { width, height } = comp;
    const frameFootage = await footage.prepare(doc, comp, time, 'fail', warn, false, plate.layer);
    const timestamps = await store.timestamps(plate.item);
    const index = shownFrames(plate.layer, plate.item, plate.sourceTime, timestamps, false).a;
    const samples = await store.i420(plate.item, index);
    const damage = cutShort(plate.item, timestamps, index, store.decodedEnd(plate.item));
    if (damage) throw damage;
    throwIfCancelled(opts.signal);
    const frame = { comp, t: time, width, height, hidden: plate.layer };
    const parts = graphicsRects({ doc, measure }, frame) ?? [
      { x: 0, y: 0, width, height, layers: drawnLayers(comp, time, plate.layer).map((d) => d.layer) },
    ];
    // Parts whose layers draw still are composed once and kept (still-parts.ts); the others, every frame.
    const graphics: GraphicsRect[] = [];
    const fresh: PaintedRect[] = [];
    for (const part of parts) {
      const rgba = stillParts.get(doc, comp, part, warn);
      if (rgba) graphics.push({ x: part.x, y: part.y, width: part.width, height: part.height, rgba });
      else fresh.push(part);
    }
    composeParts(doc, comp, time, plate.layer, fresh, frameFootage, warn).forEach(({ part, warnings }, i) => {
      stillParts.put(doc, comp, fresh[i]!, part.rgba, warnings);
      graphics.push(part);
    });
    const { buffer, matrix } = target(width, height);
    overPlate(samples, graphics, width, height, plateTransform(plate.colour, matrix), matrix, buffer);
  }

  /** Runs `fn` with the compositing environment of one frame; the frame's nested compositions are released after. */
  function withEnv<T>(
    doc: Project,
    comp: Composition,
    frameFootage: FrameFootage,
    warn: (message: string) => void,
    hidden: Layer | undefined,
    fn: (env: ComposeEnv) => T,
  ): T {
    const nested = new NestedFrames(pool, comp, (c, t, w, h) =>
      composeComp(env, c, t, w, h, scaling(w / c.width, h / c.height)),
    );
    const env: ComposeEnv = {
      doc,
      pool,
      footage: frameFootage,
      measure,
      warn,
      layerCache,
      stack: [],
      hidden,
      drawNested: (c, t, w, h, paint) => nested.draw(env.stack, c, t, w, h, paint),
    };
    try {
      return fn(env);
    } finally {
      nested.release();
    }
  }

  /**
   * Composes `comp` at `time` (synchronously, so concurrent frames never share a surface mid-frame) and returns
   * its pixels, premultiplied; `plan` says where the background goes ('none': nowhere).
   */
  function compose(
    doc: Project,
    comp: Composition,
    time: number,
    width: number,
    height: number,
    frameFootage: FrameFootage,
    warn: (message: string) => void,
    plan: 'none' | 'first' | 'skip' | 'after',
  ): Buffer {
    return withEnv(doc, comp, frameFootage, warn, undefined, (env) => {
      const base = scaling(width / comp.width, height / comp.height);
      const surface = composeComp(env, comp, time, width, height, base, (s) => {
        if (plan === 'first') fillBackdrop(s.ctx, comp, width, height, false);
      });
      if (plan === 'after') fillBackdrop(surface.ctx, comp, width, height, true);
      const rgba = surface.canvas.data();
      pool.release(surface);
      return rgba;
    });
  }

  /**
   * The layers of `comp` but `hidden` at `time`, at the comp's own size, on transparent black: only the parts
   * `rects`, each composed on a surface of its own size (the frame shifted by whole pixels, which Skia draws as
   * the same pixels), so no more is drawn and read back than those parts. Premultiplied.
   */
  function composeParts(
    doc: Project,
    comp: Composition,
    time: number,
    hidden: Layer,
    rects: readonly FrameRect[],
    frameFootage: FrameFootage,
    warn: (message: string) => void,
  ): { part: GraphicsRect; warnings: string[] }[] {
    // Each part's own warnings too, for the parts kept (still-parts.ts) to tell them again.
    let told: string[] = [];
    const tell = (message: string) => {
      told.push(message);
      warn(message);
    };
    return withEnv(doc, comp, frameFootage, tell, hidden, (env) => {
      return rects.map((r) => {
        told = [];
        const surface = composeComp(env, comp, time, r.width, r.height, translate(-r.x, -r.y));
        const rgba = surface.canvas.data();
        pool.release(surface);
        return { part: { x: r.x, y: r.y, width: r.width, height: r.height, rgba }, warnings: told };
      });
    });
  }

  /** Decodes the footage the frame shows, then draws it (synchronously). */
  async function drawFrame(
    doc: Project,
    comp: Composition,
    time: number,
    width: number,
    height: number,
    opts: RenderOptions,
    warnings: Set<string>,
    warn: (message: string) => void,
  ): Promise<RenderedFrame> {
    const frameFootage = await footage.prepare(doc, comp, time, opts.missingFootage, warn, opts.scrubCache);
    throwIfCancelled(opts.signal);
    const transparent = opts.transparent ?? false;
    const plan = transparent ? 'none' : backdropPlan(comp, time);
    const rgba = compose(doc, comp, time, width, height, frameFootage, warn, plan);
    // An opaque frame is the same premultiplied or not; saying "straight" spares encoders a pass.
    return { width, height, rgba, premultiplied: transparent, warnings: [...warnings] };
  }
}
