/**
 * The composition root: one place that wires the engine, its ports and the optional services
 * (renderer, render queue, confinement) into a session that the CLI, the MCP server and the app host share.
 * Cheap and side-effect free to create: an MCP client may start the server twice to probe it.
 */
import type { Confinement } from './confinement/types.js';
import {
  Engine,
  engineCommands,
  type AnyCommand,
  type EnginePorts,
  type SurfaceWords,
} from './engine/index.js';
import { inProcessRenderer } from './render/in-process-renderer.js';
import { createNodePorts } from './node-io/engine-ports.js';
import { lazyRenderer, renderCommands } from './render/commands.js';
import { BUNDLED_FAMILIES, uncoveredCharacters } from './render/font-list.js';
import { renderQueueCommands } from './render/queue/commands/index.js';
import { findFfmpeg } from './render/queue/exporters/ffmpeg.js';
import { findExecutable } from './node-io/search-path.js';
import type { RenderQueueServiceOptions } from './render/queue/options.js';
import type { FrameRenderer } from './render/types.js';
import { RenderQueueService } from './render/queue/service.js';

export interface SessionOptions {
  ports?: EnginePorts;
  confinement?: Confinement;
  logError?: (message: string) => void;
  extraCommands?: AnyCommand[];
  /** Render queue settings (tests pass a stand-in renderer module or fewer workers). */
  renderQueue?: Omit<RenderQueueServiceOptions, 'liveDocument'>;
  /** Where executables (ffmpeg) are looked for, PATH-style: the CLI passes $PATH. Default: DEFAULT_SEARCH_PATH. */
  searchPath?: string;
  /** How error remedies name lookups and params (default: MCP tools; the CLI passes its own words). */
  words?: SurfaceWords;
  /** Draw frames on the calling thread instead of the preview worker: for one-shot commands (a single still). */
  inProcessRenderer?: boolean;
  /** Told every file the session writes (saves, frames, render outputs and manifests): get_output serves only these. */
  onFileWritten?: (path: string) => void;
}

export interface Session {
  engine: Engine;
  confinement?: Confinement;
  /** The render queue's job runner (renderQueue.render/stop; statuses for renderQueue.list). */
  renderQueue: RenderQueueService;
  /** The session's frame renderer (its preview worker), shared by frame.preview and the studio's viewer. */
  renderer: () => Promise<FrameRenderer>;
}

export function createSession(options: SessionOptions = {}): Session {
  const base = options.ports ?? createNodePorts({ searchPath: options.searchPath });
  const ports = recordWrites(
    options.confinement ? options.confinement.wrapPorts(base) : base,
    options.onFileWritten,
  );
  // The service reads the live document at report time (items removed mid-render); the engine exists by then.
  const { confinement } = options;
  // Skia loads on the first frame; footage is read through the (confined) ports.
  const renderer = (options.inProcessRenderer ? inProcessRenderer : lazyRenderer)({
    readFile: (path) => ports.readFile(path),
    openMedia: (path) => ports.openMedia(path),
    findTools: async () => ({
      ffmpeg: await findFfmpeg(options.searchPath),
      ffprobe: await findExecutable('ffprobe', options.searchPath),
    }),
  });
  const renderQueue = new RenderQueueService({
    findFfmpeg: () => findFfmpeg(options.searchPath),
    ...(options.words && { words: options.words }),
    ...(options.onFileWritten && {
      onFilesWritten: (paths: string[]) => paths.forEach((p) => options.onFileWritten?.(p)),
    }),
    ...options.renderQueue,
    // Confined: render outputs go through folders the confinement opened and verified, so a folder swapped
    // for a symlink after the guard's check cannot redirect frames out of the roots.
    ...(confinement?.info.confined && {
      openWriteDir: (dir: string) => confinement.openWriteDir(dir, 'renderQueue.render writes'),
    }),
    // Security: rendered on workers (mcp --redis), the jobs carry the roots and each worker confines them the
    // same way (src/render/distributed/job-confinement.ts): the server's checks alone would not hold over there.
    ...(confinement?.info.confined &&
      options.renderQueue?.distributed && {
        distributed: {
          ...options.renderQueue.distributed,
          roots: { read: confinement.info.readRoots, write: confinement.info.writeRoots },
        },
      }),
    liveDocument: () => engine.document,
    liveOpening: () => engine.opening,
  });
  const engine: Engine = new Engine({
    commands: [
      ...engineCommands(),
      // renderQueue.*: the item commands (add, list, ...) and the job commands (render, stop), one module.
      ...renderQueueCommands(renderQueue),
      // frame.preview / frame.save.
      ...renderCommands(renderer),
      ...(options.extraCommands ?? []),
    ],
    ports,
    guard: options.confinement?.guard,
    logError: options.logError,
    fontFamilies: BUNDLED_FAMILIES,
    missingGlyphs: uncoveredCharacters,
    words: options.words,
  });
  return { engine, confinement: options.confinement, renderQueue, renderer };
}

/** The ports, telling `onWritten` each file written through them once the write succeeded. */
function recordWrites(ports: EnginePorts, onWritten: ((path: string) => void) | undefined): EnginePorts {
  if (!onWritten) return ports;
  return {
    ...ports,
    writeFileAtomic: async (path, data) => {
      await ports.writeFileAtomic(path, data);
      onWritten(path);
    },
  };
}
