/**
 * What doc_inspect and capabilities report as `confinement` in bridge mode. Two processes confine the agent:
 * the MCP server (`mcp --bridge … --automation-*-root`) checks before forwarding, and the app (`app
 * --automation-*-root`) checks again before running. A file is reachable only when both allow it, so the
 * top-level fields are the intersection (the same shape as headless mode), and each layer is shown as well
 * so the agent and the person know which process to restart with which flag.
 */
import type { ConfinementInfo } from '../confinement/types.js';
import { isInside } from '../confinement/path-resolve.js';

/** The bridge-mode `confinement` value. */
export interface LayeredConfinement extends ConfinementInfo {
  /** The MCP server's own roots (`effectcraft-cli mcp --bridge PORT --automation-*-root DIR`). */
  mcp: ConfinementInfo;
  /** The app's own roots (`effectcraft-cli app --automation-*-root DIR`); null when the app could not say. */
  app: ConfinementInfo | null;
  /** Why `app` is null; the top-level fields then show only the MCP side. */
  appUnknown?: string;
}

/** Directories below both a root of `a` and a root of `b`: the deeper of each nested pair. */
function intersect(a: readonly string[], b: readonly string[]): string[] {
  const out = new Set<string>();
  for (const x of a)
    for (const y of b) {
      if (isInside(x, y)) out.add(x);
      else if (isInside(y, x)) out.add(y);
    }
  return [...out];
}

/** Readable roots of one layer (write roots are readable too). */
const readable = (c: ConfinementInfo) => [...c.readRoots, ...c.writeRoots];

/** Combines both layers; an unconfined layer allows everything, so the other one decides alone. */
export function effectiveConfinement(mcp: ConfinementInfo, app: ConfinementInfo): ConfinementInfo {
  if (!mcp.confined)
    return { confined: app.confined, readRoots: [...app.readRoots], writeRoots: [...app.writeRoots] };
  if (!app.confined)
    return { confined: true, readRoots: [...mcp.readRoots], writeRoots: [...mcp.writeRoots] };
  const writeRoots = intersect(mcp.writeRoots, app.writeRoots);
  // Read roots already covered by an effective write root are not repeated.
  const readRoots = intersect(readable(mcp), readable(app)).filter(
    (r) => !writeRoots.some((w) => isInside(r, w)),
  );
  return { confined: true, readRoots, writeRoots };
}

/** The layered view; `app` null (with the reason) when the app's roots are unknown. */
export function layeredConfinement(
  mcp: ConfinementInfo,
  app: ConfinementInfo | { unknown: string },
): LayeredConfinement {
  const mcpCopy = { confined: mcp.confined, readRoots: [...mcp.readRoots], writeRoots: [...mcp.writeRoots] };
  if ('unknown' in app) return { ...mcpCopy, mcp: mcpCopy, app: null, appUnknown: app.unknown };
  return { ...effectiveConfinement(mcp, app), mcp: mcpCopy, app };
}
