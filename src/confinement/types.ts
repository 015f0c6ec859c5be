/**
 * The contract of confinement (`--automation-read-root` / `--automation-write-root`), shared by the engine
 * session, the MCP server and the bridge client. The implementation is `createConfinement` in this folder.
 */
import type { CommandGuard, EnginePorts, ErrorInfo } from '../engine/index.js';

export interface ConfinementInfo {
  confined: boolean;
  /** Real paths (symlinks resolved at start-up). */
  readRoots: string[];
  writeRoots: string[];
}

/**
 * A directory opened once and verified to be inside the write roots, for writers that create many files in
 * it (the render queue). Files are created and renamed as `join(base, name)`, which the kernel resolves inside
 * the opened directory itself, so swapping the directory for a symlink after the check redirects nothing.
 */
export interface WriteDir {
  /** The directory's real path when it was checked (for reports and cleanup records). */
  readonly real: string;
  /** Prefix for names inside the opened directory, for this process (`/proc/self/fd/N` on Linux). */
  readonly base: string;
  /** The same for a child process of the same user, such as ffmpeg (`/proc/<our pid>/fd/N` on Linux). */
  readonly sharedBase: string;
  /** Throws `path_outside_roots` unless the opened directory is still at `real`, inside the roots. */
  verify(): Promise<void>;
  /** Removes, if empty again, the folders this open created (exact cleanup of a failed render). */
  removeCreated(): Promise<void>;
  /** Releases the descriptors; `base` and `sharedBase` are unusable afterwards. */
  close(): Promise<void>;
}

export interface Confinement {
  readonly info: ConfinementInfo;
  /** Checks a command before it runs: declared path params, files it writes/reads, every absolute path in its params. */
  readonly guard: CommandGuard;
  /** Wraps the engine's ports so reads and writes that happen later (footage, saves) are checked at the final open. */
  wrapPorts(ports: EnginePorts): EnginePorts;
  /**
   * For tools that are not engine commands (run_script, ui_click, …): null when allowed, otherwise a
   * `refused_while_confined` error naming the flag that would allow it.
   */
  checkTool(toolName: string): ErrorInfo | null;
  /** Checks one path for reading or writing: null when allowed, otherwise a `path_outside_roots` error. */
  checkPath(path: string, access: 'read' | 'write', param: string): ErrorInfo | null;
  /**
   * Checks `dir` for writing, creates its missing folders (each under a verified parent, never through a
   * link) and opens it for writes that cannot be redirected. Throws an EngineError (`path_outside_roots`).
   */
  openWriteDir(dir: string, param: string): Promise<WriteDir>;
}
