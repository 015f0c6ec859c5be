/**
 * A session renderer on the calling thread, for one-shot commands (`effectcraft-cli still`): starting the
 * preview worker costs a thread and a second load of Skia, more than drawing one frame. Footage is read and
 * video opened through the same ports as the worker's (confinement applies); Skia loads on the first frame.
 */
import type { PreviewWorkerOptions } from './preview/client.js';
import type { FrameRenderer } from './types.js';

/** A lazy getter like lazyRenderer's, whose renderer draws here instead of in a worker. */
export function inProcessRenderer(options: PreviewWorkerOptions): () => Promise<FrameRenderer> {
  let pending: Promise<FrameRenderer> | undefined;
  return () => {
    pending ??= load(options);
    return pending;
  };
}

async function load(options: PreviewWorkerOptions): Promise<FrameRenderer> {
  const [{ createFrameRenderer }, tools] = await Promise.all([
    import('./renderer.js'),
    options.findTools?.() ?? { ffmpeg: null, ffprobe: null },
  ]);
  const { openMedia } = options;
  const opened: { close(): Promise<void> }[] = [];
  const renderer = createFrameRenderer({
    readFile: options.readFile,
    ...(openMedia && {
      media: {
        ...tools,
        readFile: options.readFile,
        open: async (path: string) => {
          const file = await openMedia(path);
          opened.push(file);
          return file.childPath;
        },
      },
    }),
  });
  return {
    renderFrame: (doc, compId, time, opts) => renderer.renderFrame(doc, compId, time, opts),
    renderStill: (doc, compId, time, opts, encoding) =>
      renderer.renderStill(doc, compId, time, opts, encoding),
    dispose() {
      renderer.dispose();
      for (const file of opened.splice(0)) void file.close().catch(() => undefined);
    },
  };
}
