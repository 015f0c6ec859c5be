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
}
