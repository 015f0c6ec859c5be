/** The confinement flags shared by `mcp` and `app`: parsed once, turned into a Confinement or a usage error. */
import { tryCreateConfinement, type RestartHint } from '../confinement/index.js';
import type { Confinement } from '../confinement/types.js';
import { UsageError } from './usage.js';

/** Builds the confinement from repeatable root flags; undefined when neither flag was given. */
export function confinementFromFlags(
  values: {
    'automation-read-root'?: string[];
    'automation-write-root'?: string[];
  },
  restart?: RestartHint,
): Confinement | undefined {
  const readRoots = values['automation-read-root'] ?? [];
  const writeRoots = values['automation-write-root'] ?? [];
  if (!readRoots.length && !writeRoots.length) return undefined;
  const r = tryCreateConfinement({ readRoots, writeRoots, restart });
  if (!r.ok) throw new UsageError(r.message);
  return r.confinement;
}
