/**
 * Rendering footage in the test process: a frame renderer whose video files are opened like a session opens
 * them (descriptors for ffmpeg), and a reader of the source frame a rendered pixel names.
 */
import { afterEach } from 'vitest';
import type { MediaFile, Project } from '../../src/engine/index.js';
import { openMediaFile } from '../../src/node-io/media-file.js';
import { createNodePorts } from '../../src/node-io/engine-ports.js';
import { findExecutable } from '../../src/node-io/search-path.js';
import { createFrameRenderer } from '../../src/render/renderer.js';
import type { FrameRenderer, FrameRendererOptions } from '../../src/render/types.js';
import { frameOf } from './media.js';

const opened: MediaFile[] = [];
const renderers: FrameRenderer[] = [];

afterEach(async () => {
  renderers.splice(0).forEach((r) => r.dispose());
  await Promise.all(opened.splice(0).map((f) => f.close()));
});

/**
 * A renderer that decodes video with the machine's ffmpeg; `children` sees every decoder pid. `options` adds
 * renderer options (a scrub cache).
 */
export async function mediaRenderer(
  children?: (pid: number, alive: boolean) => void,
  options: Pick<FrameRendererOptions, 'scrubCacheBytes' | 'frameCacheBytes'> = {},
): Promise<FrameRenderer> {
  const ports = createNodePorts();
  const renderer = createFrameRenderer({
    ...options,
    readFile: (p) => ports.readFile(p),
    media: {
      ffmpeg: await findExecutable('ffmpeg'),
      ffprobe: await findExecutable('ffprobe'),
      readFile: (p) => ports.readFile(p),
      async open(path) {
        const file = await openMediaFile(path);
        opened.push(file);
        return file.childPath;
      },
      onChild: children,
    },
  });
  renderers.push(renderer);
  return renderer;
}

/** The source frame number the centre pixel of comp `compId` at `time` shows (-1: transparent, nothing drawn). */
export async function shownFrame(
  renderer: FrameRenderer,
  doc: Project,
  compId: string,
  time: number,
): Promise<number> {
  const f = await renderer.renderFrame(doc, compId, time, { missingFootage: 'fail', transparent: true });
  const i = (Math.floor(f.height / 2) * f.width + Math.floor(f.width / 2)) * 4;
  if (f.rgba[i + 3]! < 128) return -1;
  return frameOf(f.rgba[i]!, f.rgba[i + 1]!, f.rgba[i + 2]!);
}

/**
 * For comp frames 0 .. `frames - 1` at `fps`: the source frame the pixel at each of `points` shows, one list
 * per point (two copies of a clip side by side, say). Drawn as a final render draws (`missing` 'fail'), or as a
 * preview does ('placeholder': then every frame's warnings go to `warnings`).
 */
export async function shownFramesAt(
  renderer: FrameRenderer,
  doc: Project,
  compId: string,
  fps: number,
  frames: number,
  points: ReadonlyArray<readonly [number, number]>,
  missing: 'fail' | 'placeholder' = 'fail',
  warnings: string[] = [],
): Promise<number[][]> {
  const out = points.map(() => [] as number[]);
  for (let k = 0; k < frames; k++) {
    const f = await renderer.renderFrame(doc, compId, k / fps, { missingFootage: missing });
    warnings.push(...f.warnings);
    points.forEach(([x, y], p) => {
      const i = (y * f.width + x) * 4;
      out[p]!.push(frameOf(f.rgba[i]!, f.rgba[i + 1]!, f.rgba[i + 2]!));
    });
  }
  return out;
}
