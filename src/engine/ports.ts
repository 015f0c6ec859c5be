/**
 * The engine's only way to touch the outside world. The Node implementation lives in
 * `src/node-io/engine-ports.ts`; confinement wraps it (`src/confinement`), tests may pass their own.
 */
import type { ScriptThread, ScriptThreadEvents, ScriptWorkerData } from './script-protocol.js';

export interface ImageInfo {
  width: number;
  height: number;
  /** Lower-case format name as decoded: png, jpeg, webp, gif, svg. */
  format: string;
}

export interface EnginePorts {
  readFile(path: string): Promise<Buffer>;
  /** Writes via a temporary beside the target, fsync and rename: the target is never half-written. */
  writeFileAtomic(path: string, data: string | Uint8Array): Promise<void>;
  exists(path: string): Promise<boolean>;
  /** Reads an image's header; throws EngineError(unsupported_format | no_such_file) when it cannot. */
  probeImage(path: string): Promise<ImageInfo>;
  /** Opens a file (or reveals it in the file manager) with the desktop's handler; throws missing_dependency without one. */
  openWithOs(path: string, mode: 'open' | 'reveal'): Promise<void>;
  /**
   * Starts a script in a thread of its own that the engine can stop at any moment, even inside a tight
   * synchronous loop (the wall-clock limit); `events` hear from it until it exits. Throws EngineError when
   * no thread can be started (missing_dependency, refused_while_confined).
   */
  startScript(data: ScriptWorkerData, events: ScriptThreadEvents): ScriptThread;
}
