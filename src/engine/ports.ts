/**
 * The engine's only way to touch the outside world. The Node implementation lives in
 * `src/node-io/engine-ports.ts`; confinement wraps it (`src/confinement`), tests may pass their own.
 */
import type { FootageMedia } from './model.js';
import type { ScriptThread, ScriptThreadEvents, ScriptWorkerData } from './script-protocol.js';

export interface ImageInfo {
  width: number;
  height: number;
  /** Lower-case format name as decoded: png, jpeg, webp, gif, svg. */
  format: string;
  /** Whether it has an alpha channel. */
  alpha?: boolean;
  /** Frames of an animated image (GIF, WebP, APNG); 1 or absent for a still. */
  frames?: number;
  /** Clockwise degrees its EXIF orientation turns it by for display; width/height are after turning. */
  rotation?: 0 | 90 | 180 | 270;
}

/**
 * A media file opened for child processes (ffprobe, ffmpeg): they open `childPath`, which names this very open
 * file (`/proc/<pid>/fd/N` on Linux), so a path swapped after the check cannot redirect them.
 */
export interface MediaFile {
  readonly childPath: string;
  /** Closes the descriptor; a child that opened `childPath` keeps its own. Safe to call twice. */
  close(): Promise<void>;
}

/** What probing a media file found: its picture size (after rotation and pixel aspect) and its facts. */
export interface MediaProbe {
  width: number;
  height: number;
  /** The container as ffprobe names it: of its family, the name the extension gives (mp4, mov, webm, m4a), else the first. */
  format: string;
  media: FootageMedia;
  /** What is wrong with the file that does not stop an import (an MP4/MOV cut off after its index), with the remedy. */
  warnings?: string[];
}

export interface EnginePorts {
  readFile(path: string): Promise<Buffer>;
  /** Writes via a temporary beside the target, fsync and rename: the target is never half-written. */
  writeFileAtomic(path: string, data: string | Uint8Array): Promise<void>;
  exists(path: string): Promise<boolean>;
  /** Whether a regular file is at `path` (a folder, FIFO or device is not: an image sequence's frames must be). */
  isFile(path: string): Promise<boolean>;
  /** Reads an image's header; throws EngineError(unsupported_format | no_such_file) when it cannot. */
  probeImage(path: string): Promise<ImageInfo>;
  /** Opens a regular file for ffprobe/ffmpeg to read (confined: checked at the open, never through a link). */
  openMedia(path: string): Promise<MediaFile>;
  /**
   * Probes an opened media file with ffprobe. Throws EngineError: unsupported_format (naming what ffprobe said),
   * missing_dependency (no ffprobe), timeout. `countPackets` false reads the headers only (default true).
   */
  probeMedia(file: MediaFile, shownPath: string, options?: { countPackets?: boolean }): Promise<MediaProbe>;
  /** Opens a file (or reveals it in the file manager) with the desktop's handler; throws missing_dependency without one. */
  openWithOs(path: string, mode: 'open' | 'reveal'): Promise<void>;
  /**
   * Starts a script in a thread of its own that the engine can stop at any moment, even inside a tight
   * synchronous loop (the wall-clock limit); `events` hear from it until it exits. Throws EngineError when
   * no thread can be started (missing_dependency, refused_while_confined).
   */
  startScript(data: ScriptWorkerData, events: ScriptThreadEvents): ScriptThread;
}
