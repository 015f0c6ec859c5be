/**
 * Confinement (`--automation-read-root` / `--automation-write-root`): what an agent may read and write.
 * See docs/confinement.md for the model and what it does not defend against.
 *
 * Start-up: `createConfinement` resolves the roots once with realpath and throws a `ConfinementSetupError`
 * (a plain message the CLI prints, exit 2) when a root does not exist or is not a directory;
 * `tryCreateConfinement` returns the same outcome as a value.
 */
import type { ErrorInfo } from '../engine/index.js';
import { createGuard } from './guard.js';
import { createPolicy } from './policy.js';
import { wrapPortsWith } from './ports.js';
import { resolveRoots, type RootOptions } from './roots.js';
import { checkToolName } from './tools.js';
import type { Confinement } from './types.js';
import { openWriteDir } from './write-dir.js';

export type { Confinement, ConfinementInfo, WriteDir } from './types.js';
export { READ_FLAG, WRITE_FLAG, type RootOptions } from './roots.js';
export { SERVER_RESTART, type RestartHint } from './errors.js';
export { UNCONFINABLE_TOOLS } from './tools.js';
export { UPLOADS_FOLDER } from './policy.js';

/** A root given at start-up is unusable; `message` names the flag and the directory, ready to print. */
export class ConfinementSetupError extends Error {
  readonly code = 'bad_root';
  constructor(message: string) {
    super(message);
    this.name = 'ConfinementSetupError';
  }
}

export type ConfinementResult = { ok: true; confinement: Confinement } | { ok: false; message: string };

/** Like `createConfinement`, with a bad root reported as `{ ok: false, message }`. */
export function tryCreateConfinement(options: RootOptions): ConfinementResult {
  const resolved = resolveRoots(options);
  if (!resolved.ok) return resolved;
  const policy = createPolicy(resolved.roots, options.restart);
  const guard = createGuard(policy);
  const info = Object.freeze({
    confined: policy.confined,
    readRoots: [...resolved.roots.readRoots],
    writeRoots: [...resolved.roots.writeRoots],
  });
  const confinement: Confinement = {
    info,
    guard,
    wrapPorts: (ports) => wrapPortsWith(ports, policy),
    checkTool: (name) => checkToolName(name, policy.confined, policy.restart),
    checkPath(path: string, access: 'read' | 'write', param: string): ErrorInfo | null {
      if (!policy.confined) return null;
      const r = policy.check(path, access, param);
      return r.ok ? null : r.error;
    },
    openWriteDir: (dir, param) => openWriteDir(policy, dir, param),
  };
  return { ok: true, confinement };
}

/**
 * Builds the confinement for these roots (each may be given several times; none at all means not
 * confined: every check passes). Throws `ConfinementSetupError` for a root that does not exist or is not
 * a directory. Resolves roots synchronously and touches nothing else.
 */
export function createConfinement(options: RootOptions): Confinement {
  const r = tryCreateConfinement(options);
  if (!r.ok) throw new ConfinementSetupError(r.message);
  return r.confinement;
}
