/**
 * A worker's confinement for one job. A confined MCP server (`mcp --redis URL --automation-write-root DIR`)
 * checks every path when an item is added and when the render starts, but the frames are written and the footage
 * read on other machines: the job carries the server's roots, and the worker opens the job's outputs and reads
 * its footage through a confinement made from them, with the same checks at the final open as a confined local
 * render (a folder swapped for a symlink between the server's check and the worker's write redirects nothing).
 */
import { tryCreateConfinement } from '../../confinement/index.js';
import type { EnginePorts, ErrorInfo } from '../../engine/index.js';
import type { OpenWriteDir } from '../queue/plain-dir.js';
import type { JobRoots } from './protocol.js';

export interface JobIo {
  /** The worker's ports, wrapped by the job's confinement when it has one. */
  ports: EnginePorts;
  /** How the job's output folders are opened: through the confinement, or undefined (by path). */
  openWriteDir?: OpenWriteDir;
}

/**
 * The ports and output folders of a job with `roots`. A root the worker cannot resolve (not mounted at the same
 * path here) is a not_configured error, which fails the job rather than render unconfined.
 */
export function jobIo(
  roots: JobRoots | null,
  ports: EnginePorts,
): { ok: true; io: JobIo } | { ok: false; error: ErrorInfo } {
  if (!roots) return { ok: true, io: { ports } };
  const r = tryCreateConfinement({ readRoots: roots.read, writeRoots: roots.write });
  if (!r.ok)
    return {
      ok: false,
      error: {
        code: 'not_configured',
        message: `This worker cannot confine the job to the server's roots: ${r.message}`,
        remediation:
          "Mount the server's --automation-read-root and --automation-write-root folders at the same paths on every worker, or stop the workers that lack them.",
      },
    };
  const { confinement } = r;
  return {
    ok: true,
    io: {
      ports: confinement.wrapPorts(ports),
      openWriteDir: (dir) => confinement.openWriteDir(dir, 'renderQueue.render writes'),
    },
  };
}
