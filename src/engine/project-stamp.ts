/**
 * The stale-writer check of project saves. Two sessions may have one project file open at once (the app and
 * a plain `effectcraft-cli mcp`, two agents): a save replaces the whole file, so the later saver would throw
 * away the other's saved work without a word. The engine keeps a digest of the bytes it last read from or
 * wrote to its project file; a save to that file reads it first and refuses when someone else wrote it since.
 */
import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import type { CommandContext } from './catalog.js';
import { EngineError } from './errors.js';

/** The digest the engine keeps of its project file's bytes (sha256, hex). */
export function projectDigest(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * Throws `file_changed` when `path` is this session's project file and its bytes are no longer the ones the
 * session last read or wrote. A file that is gone, or that cannot be read, is not someone else's work to keep:
 * the save goes on (and reports its own failure, if any).
 */
export async function refuseStaleSave(ctx: CommandContext, path: string): Promise<void> {
  const known = ctx.projectFileDigest;
  if (known === null || path !== ctx.projectPath) return;
  let now: Buffer;
  try {
    now = await ctx.ports.readFile(path);
  } catch {
    return;
  }
  if (projectDigest(now) === known) return;
  throw new EngineError(
    'file_changed',
    `${basename(path)} was changed on disk since this session opened or last saved it (another program or session saved it; it now holds ${now.length} bytes), so saving would overwrite that work.`,
    'Keep both: save this session\'s project elsewhere (project.save with another .ecproj path), then open the file again (project.open) to see the other changes. To replace the file with this session\'s project anyway, save with "overwrite": true.',
  );
}
