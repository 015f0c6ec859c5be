/**
 * Image sequences (PNG, JPEG, WebP): one file per frame, written atomically through the tracker, continuing
 * on overflow volumes when the current one is low on space or a write fails with ENOSPC/EDQUOT.
 */
import { promises as fs } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { EngineError, framePath, fsError } from '../../../engine/index.js';
import type { FramePayload } from '../../encode.js';
import { frameOfName } from '../../../engine/output-template.js';
import { sha256 } from '../../hash.js';
import { checkpoint, throwIfStopped } from '../item-errors.js';
import type { Exporter, ExporterContext, OutputFile } from './types.js';

interface Volume {
  dir: string;
  /** Move on to the next volume when writing a frame would leave less than this free. */
  minFreeBytes: number;
}

/**
 * The volumes of an item in order: the output folder, then each overflow folder. An overflow entry's
 * minFreeBytes says when to move on to it: once the volume before it would keep less than that free
 * ("overflow to /mnt/b when the output volume has less than 1 GB free"). The last volume is used until a
 * write fails with ENOSPC/EDQUOT; any volume is left on such a failure.
 */
export function volumesOf(ctx: ExporterContext): Volume[] {
  const dirs = [dirname(ctx.item.output), ...ctx.item.overflow.map((o) => o.dir)];
  return dirs.map((dir, i) => ({ dir, minFreeBytes: ctx.item.overflow[i]?.minFreeBytes ?? 0 }));
}

async function freeBytes(dir: string): Promise<number> {
  const s = await fs.statfs(dir);
  return Number(s.bavail) * Number(s.bsize);
}

// Folder entries read between two stopping points of the skipExisting scan.
const SCAN_BATCH = 4096;

const isFull = (err: unknown) => ['ENOSPC', 'EDQUOT'].includes((err as NodeJS.ErrnoException)?.code ?? '');

export class SequenceExporter implements Exporter {
  /**
   * With overflow folders, frames are written in frame order: workers finish them out of order, and the
   * volume cursor below only moves forward, so written in frame order no frame lands on an earlier volume
   * than a frame before it. Without overflow there is one volume and any order will do.
   */
  readonly ordered: boolean;
  readonly payload: FramePayload;
  readonly #ctx: ExporterContext;
  readonly #volumes: Volume[];
  /** The volume frames go to now; it only moves forward. */
  #current = 0;
  readonly #written = new Map<number, OutputFile>();
  /** Frames skipped because their file was there (skipExisting), with the file found. */
  readonly #existing = new Map<number, string>();

  constructor(ctx: ExporterContext, payload: FramePayload) {
    this.#ctx = ctx;
    this.payload = payload;
    this.#volumes = volumesOf(ctx);
    this.ordered = this.#volumes.length > 1;
  }

  /**
   * With skipExisting, a frame whose final name exists on any volume is skipped (and never touched). Each
   * volume is listed once, and its names are read back to frames: a stat per frame took minutes on a
   * day-long composition, and a stop has to be able to interrupt the scan.
   */
  async prepare(): Promise<ReadonlySet<number>> {
    const skip = new Set<number>();
    const { item, frames, signal } = this.#ctx;
    if (!item.skipExisting || !frames.length) return skip;
    const [first, last] = [frames[0]!, frames.at(-1)!];
    for (const v of this.#volumes) {
      throwIfStopped(signal);
      // A volume that does not exist yet (or cannot be listed) holds no frames to skip.
      const names = await fs.readdir(v.dir).catch(() => [] as string[]);
      for (const [i, name] of names.entries()) {
        if (i % SCAN_BATCH === SCAN_BATCH - 1) await checkpoint(signal);
        const frame = frameOfName(item.output, name);
        if (frame === null || frame < first || frame > last || skip.has(frame)) continue;
        skip.add(frame);
        this.#existing.set(frame, join(v.dir, name));
      }
    }
    return skip;
  }

  existing(): ReadonlyMap<number, string> {
    return this.#existing;
  }

  async writeFrame(frame: number, data: Uint8Array): Promise<void> {
    const name = basename(framePath(this.#ctx.item.output, frame));
    for (;;) {
      throwIfStopped(this.#ctx.signal);
      const volume = this.#volumes[this.#current]!;
      const last = this.#current === this.#volumes.length - 1;
      const path = join(volume.dir, name);
      const dir = await this.#ctx.tracker.ensureDir(volume.dir).catch((err: unknown) => {
        throw err instanceof EngineError ? err : fsError(err, volume.dir, 'create the folder');
      });
      // Through the opened folder: a folder swapped for a link must not tell us about another volume.
      if (!last && (await freeBytes(dir.base)) - data.byteLength < volume.minFreeBytes) {
        this.#current++;
        continue;
      }
      try {
        await this.#ctx.tracker.writeFile(path, data);
      } catch (err) {
        if (isFull(err) && !last) {
          this.#current++;
          continue;
        }
        // A refusal (the folder was swapped for a link out of the roots) keeps its own code.
        throw err instanceof EngineError ? err : fsError(err, path, 'write');
      }
      this.#written.set(frame, { path, bytes: data.byteLength, sha256: sha256(data) });
      return;
    }
  }

  async finish(): Promise<OutputFile[]> {
    // Workers finish out of order; report files in frame order.
    return [...this.#written].sort((a, b) => a[0] - b[0]).map(([, f]) => f);
  }

  async abort(): Promise<void> {}
}
