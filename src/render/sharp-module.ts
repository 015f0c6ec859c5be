/**
 * sharp, loaded on first use: loading it takes ~45 ms, and a render worker drawing video frames (I420 or raw
 * RGBA for ffmpeg) or a preview of graphics alone never needs it, so a worker no longer pays that before its
 * first frame. The thread setting a render worker asks for is applied once it loads.
 */
import type { default as Sharp } from 'sharp';

let loaded: Promise<typeof Sharp> | undefined;
let singleThreaded = false;

/** The sharp function, loading it the first time. */
export function sharpModule(): Promise<typeof Sharp> {
  loaded ??= import('sharp').then(({ default: sharp }) => {
    if (singleThreaded) sharp.concurrency(1);
    return sharp;
  });
  return loaded;
}

/**
 * One libvips thread per render worker: libvips would otherwise start a thread pool in each worker, and the
 * cores are already used by the worker threads. Process-wide, so only the workers call it; it takes effect when
 * sharp loads (or at once, if it has).
 */
export function oneEncoderThread(): void {
  singleThreaded = true;
  void loaded?.then((sharp) => sharp.concurrency(1));
}
