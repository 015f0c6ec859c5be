/**
 * The render manifest: one JSON file beside an item's output listing every file the item wrote, with its size
 * and sha256. It lets a render result stay small (a path instead of one hash per frame) while a pipeline can
 * still check every file without trusting the renderer.
 *
 * It is written through the item's FileTracker (temporary + rename, on the item's cleanup list), so a stopped,
 * failed or removed item leaves no manifest, and an earlier manifest it replaced is put back. It is not one of
 * the item's output files: not in `files`, `bytes` or in itself.
 */
import { constants } from 'node:fs';
import { open } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { frameOfName, manifestPathFor } from '../../engine/output-template.js';
import { sha256Stream } from '../hash.js';
import { EngineError, fsError, type RenderQueueItem } from '../../engine/index.js';
import type { ExporterFactory, ExporterRegistry, OutputFile } from './exporters/types.js';
import type { FileTracker } from './tracker.js';

/** Names the manifest's shape, so a reader can tell it from any other JSON file. */
export const MANIFEST_KIND = 'effectcraft-render-manifest/1';

export interface Manifest {
  kind: typeof MANIFEST_KIND;
  item: string;
  comp: string;
  output: string;
  format: string;
  count: number;
  bytes: number;
  files: OutputFile[];
}

// Its home is the engine's output-template.ts: a row's {field} value is checked against the name it makes.
export { manifestPathFor };

export function manifestOf(item: RenderQueueItem, files: OutputFile[]): Manifest {
  return {
    kind: MANIFEST_KIND,
    item: item.id,
    comp: item.comp,
    output: item.output,
    format: item.format,
    count: files.length,
    bytes: files.reduce((n, f) => n + f.bytes, 0),
    files,
  };
}

/** Writes the manifest of `files` beside the item's output; returns its path. */
export async function writeManifest(
  tracker: FileTracker,
  item: RenderQueueItem,
  files: OutputFile[],
): Promise<string> {
  const path = manifestPathFor(item.output);
  const data = Buffer.from(JSON.stringify(manifestOf(item, files), null, 1) + '\n');
  await tracker.writeFile(path, data).catch((err: unknown) => {
    throw err instanceof EngineError ? err : fsError(err, path, 'write the render manifest');
  });
  return path;
}

/**
 * The registry with every exporter writing a manifest once it has finished: finish() is where every file is
 * known and the item's cleanup still owns them, whatever the exporter (custom ones included). An item that
 * wrote nothing (everything skipped) writes no manifest, so an earlier complete one is not replaced by an empty
 * list. `written` receives the manifest's path.
 */
export function withManifests(registry: ExporterRegistry, written: (path: string) => void): ExporterRegistry {
  return new Map([...registry].map(([format, factory]) => [format, withManifest(factory, written)]));
}

function withManifest(factory: ExporterFactory, written: (path: string) => void): ExporterFactory {
  return (ctx) => {
    const inner = factory(ctx);
    return {
      payload: inner.payload,
      ordered: inner.ordered,
      prepare: () => inner.prepare(),
      ...(inner.begin && { begin: () => inner.begin!() }),
      writeFrame: (frame, data, size) => inner.writeFrame(frame, data, size),
      abort: () => inner.abort(),
      ...(inner.existing && { existing: () => inner.existing!() }),
      ...(inner.warnings && { warnings: () => inner.warnings!() }),
      async finish() {
        const files = await inner.finish();
        // The files skipped because they were there belong to the output too (a resumed render's earlier
        // frames): listed with their own size and hash, in frame order with the new ones.
        const kept = inner.existing?.();
        if (files.length)
          written(
            await writeManifest(
              ctx.tracker,
              ctx.item,
              await withExisting(ctx.tracker, ctx.item, files, kept),
            ),
          );
        return files;
      },
    };
  };
}

/** `files` and the skipped files of `kept` (hashed here), in frame order; `files` alone when none were kept. */
async function withExisting(
  tracker: FileTracker,
  item: RenderQueueItem,
  files: OutputFile[],
  kept: ReadonlyMap<number, string> | undefined,
): Promise<OutputFile[]> {
  if (!kept?.size) return files;
  const written = new Set(files.map((f) => f.path));
  const old: OutputFile[] = [];
  for (const path of kept.values()) {
    if (written.has(path)) continue;
    // A file gone since the scan (or one that is not a plain file of the folder) is not listed.
    const found = await readKept(tracker, path).catch(() => null);
    if (found) old.push({ path, ...found });
  }
  const frame = (f: OutputFile) => frameOfName(item.output, basename(f.path)) ?? 0;
  return [...files, ...old].sort((a, b) => frame(a) - frame(b));
}

/**
 * Size and sha256 of a skipped file, read through the item's verified output folder (the tracker's handle) and
 * never through a symbolic link at its name. Security: a "frame" that was a link to a file outside the write
 * roots was followed by path, and the manifest listed that file's size and sha256 (a read outside the roots).
 */
async function readKept(tracker: FileTracker, path: string): Promise<{ bytes: number; sha256: string }> {
  const dir = await tracker.ensureDir(dirname(path));
  // O_NONBLOCK: a FIFO named like a frame (counted as existing) would block the open, and the render, forever.
  const flags = constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK;
  const handle = await open(join(dir.base, basename(path)), flags);
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new Error(`${path} is not a regular file`);
    return { bytes: info.size, sha256: await sha256Stream(handle.createReadStream({ autoClose: false })) };
  } finally {
    await handle.close();
  }
}
