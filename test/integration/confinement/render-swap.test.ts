// Render outputs swapped for a symlink out of the roots *after* the guard checked them: between the check and
// the first frame, between frames, under ffmpeg, on an overflow volume. Real directories and symlinks; the
// swap happens at a fixed point of a real render, from inside a wrapping exporter (no timing involved).
import { existsSync, readFileSync, renameSync, symlinkSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createConfinement } from '../../../src/confinement/index.js';
import { SequenceExporter, VideoExporter } from '../../../src/render/queue/exporters/index.js';
import type { Exporter, ExporterContext } from '../../../src/render/queue/exporters/types.js';
import { createSession, type Session } from '../../../src/session.js';
import { probeImage, probeVideo } from '../../helpers/probe.js';
import { colorRendererUrl, run } from '../../helpers/queue.js';
import { layout, type Layout } from './fixture.js';
import { describeWithFfmpeg } from '../../helpers/ffmpeg.js';

interface ItemReport {
  status: string;
  files: { first: string; count: number } | null;
  sha256: Record<string, string>;
  error?: { code: string };
}

/** A session confined to the write root `l.root`, with a 5-frame 16x16 comp `c` and the stand-in renderer. */
async function confinedSession(l: Layout): Promise<Session> {
  const confinement = createConfinement({ readRoots: [], writeRoots: [l.root] });
  const s = createSession({ confinement, renderQueue: { rendererModule: colorRendererUrl, maxWorkers: 1 } });
  await run(s, 'comp.new', { name: 'c', width: 16, height: 16, frameRate: 5, duration: 1 });
  return s;
}

/** Moves `dir` aside (to `dir-old`, still inside the root) and puts a symlink to the outside dir in its place. */
function swapForLinkOut(l: Layout, dir: string): void {
  renameSync(dir, `${dir}-old`);
  symlinkSync(l.outside, dir);
}

interface Hooks {
  /** After the exporter's prepare (before any frame). */
  afterPrepare?: (ctx: ExporterContext) => Promise<void>;
  /** After frame write number `n` (1-based). */
  afterWrite?: (n: number) => void;
}

/** Registers `make` for `format`, wrapped so the hooks run at fixed points of the render. */
function wrapExporter(s: Session, format: string, make: (ctx: ExporterContext) => Exporter, hooks: Hooks) {
  s.renderQueue.registerExporter(format, (ctx) => {
    const inner = make(ctx);
    let n = 0;
    return {
      payload: inner.payload,
      ordered: inner.ordered,
      async prepare() {
        const skip = await inner.prepare();
        await hooks.afterPrepare?.(ctx);
        return skip;
      },
      async writeFrame(frame, data, size) {
        await inner.writeFrame(frame, data, size);
        hooks.afterWrite?.(++n);
      },
      finish: () => inner.finish(),
      abort: () => inner.abort(),
    };
  });
}

async function renderOne(s: Session): Promise<ItemReport> {
  const r = await run<{ items: ItemReport[] }>(s, 'renderQueue.render', { detail: 'files' });
  return r.items[0]!;
}

const png = (ctx: ExporterContext) => new SequenceExporter(ctx, { kind: 'png', level: 1 });

describe('render outputs swapped for a symlink out after the check', () => {
  it('an image sequence whose folder is swapped after it was opened, before the first frame', async () => {
    const l = await layout();
    const s = await confinedSession(l);
    const out = join(l.root, 'out');
    wrapExporter(s, 'png', png, {
      async afterPrepare(ctx) {
        await ctx.tracker.ensureDir(out);
        swapForLinkOut(l, out);
      },
    });
    await run(s, 'renderQueue.add', { comp: 'c', output: join(out, 'f_[##].png') });
    const item = await renderOne(s);
    expect(item).toMatchObject({ status: 'failed', files: null, error: { code: 'path_outside_roots' } });
    expect(await readdir(l.outside)).toEqual(['secret.png']);
    // Exact cleanup: nothing of the job is left in the folder it created. The folder itself was moved by
    // somebody else, so it is left (empty) where they put it: removing it would mean following their paths.
    expect(await readdir(`${out}-old`)).toEqual([]);
  });

  it('an image sequence whose existing folder is swapped between frames', async () => {
    const l = await layout();
    const s = await confinedSession(l);
    const out = join(l.root, 'out');
    await run(s, 'renderQueue.add', { comp: 'c', output: join(out, 'f_[##].png') });
    await run(s, 'renderQueue.render', {});
    // Five frames and their manifest.
    expect(await readdir(out)).toHaveLength(6);
    // A second item into the folder that holds the first item's frames.
    const { id } = await run<{ id: string }>(s, 'renderQueue.add', {
      comp: 'c',
      output: join(out, 'g_[##].png'),
    });
    wrapExporter(s, 'png', png, { afterWrite: (n) => n === 2 && swapForLinkOut(l, out) });
    const r = await run<{ items: ItemReport[] }>(s, 'renderQueue.render', { items: [id] });
    expect(r.items[0]).toMatchObject({ status: 'failed', error: { code: 'path_outside_roots' } });
    expect(await readdir(l.outside)).toEqual(['secret.png']);
    // The two frames written before the swap are removed through the folder's handle; f_* and their
    // manifest stay.
    const kept = ['f.png.manifest.json', 'f_00.png', 'f_01.png', 'f_02.png', 'f_03.png', 'f_04.png'];
    expect((await readdir(`${out}-old`)).sort()).toEqual(kept);
  });

  it('an overflow folder swapped between frames', async () => {
    const l = await layout();
    const s = await confinedSession(l);
    const out = join(l.root, 'out');
    const overflow = join(l.root, 'ovf');
    // The output volume never has this much free, so every frame goes to the overflow folder.
    await run(s, 'renderQueue.add', {
      comp: 'c',
      output: join(out, 'f_[##].png'),
      overflow: [{ dir: overflow, minFreeBytes: 2 ** 52 }],
    });
    wrapExporter(s, 'png', png, { afterWrite: (n) => n === 1 && swapForLinkOut(l, overflow) });
    const item = await renderOne(s);
    expect(item).toMatchObject({ status: 'failed', error: { code: 'path_outside_roots' } });
    expect(await readdir(l.outside)).toEqual(['secret.png']);
    // Both folders were created by the job: the output folder (still in place, empty) is removed again; the
    // frame in the moved-aside overflow folder is removed through its handle.
    expect(existsSync(out)).toBe(false);
    expect(await readdir(`${overflow}-old`)).toEqual([]);
  });

  it('creates missing output folders through verified parents and removes exactly them on failure', async () => {
    const l = await layout();
    const s = await confinedSession(l);
    const out = join(l.root, 'a', 'b');
    wrapExporter(s, 'png', png, {
      afterWrite(n) {
        if (n === 3) throw new Error('disk on fire');
      },
    });
    await run(s, 'renderQueue.add', { comp: 'c', output: join(out, 'f_[##].png') });
    const item = await renderOne(s);
    expect(item).toMatchObject({ status: 'failed', error: { code: 'render_failed' } });
    expect(await readdir(l.root)).toEqual(['in.png']);
  });
});

describeWithFfmpeg('ffmpeg outputs while confined', () => {
  const mp4 = (ctx: ExporterContext) => new VideoExporter(ctx, 'mp4');

  // ffmpeg opens its output through our descriptor (/proc/<pid>/fd/N/…): it must still seek (MP4's
  // +faststart, MOV) and finish every container. Each file is decoded back by an independent reader.
  it.each([
    ['mp4', 'clip.mp4', probeVideo],
    ['mov', 'clip.mov', probeVideo],
    ['webm', 'clip.webm', probeVideo],
    ['gif', 'clip.gif', probeImage],
    ['webp-anim', 'clip.webp', probeImage],
  ] as const)('renders %s inside the roots through the folder handle', async (format, name, probe) => {
    const l = await layout();
    const s = await confinedSession(l);
    const output = join(l.root, 'v', name);
    await run(s, 'renderQueue.add', { comp: 'c', output, format });
    const item = await renderOne(s);
    expect(item).toMatchObject({ status: 'done', files: { first: output, count: 1 } });
    const sha = createHash('sha256').update(readFileSync(output)).digest('hex');
    expect(item.sha256[output]).toBe(sha);
    expect((await readdir(dirname(output))).sort()).toEqual([name, `${name}.manifest.json`]);
    expect(await probe(output)).toMatchObject({ frames: 5, width: 16, height: 16 });
  });

  it('an MP4 whose folder is swapped after it was opened and before ffmpeg starts', async () => {
    const l = await layout();
    const s = await confinedSession(l);
    const out = join(l.root, 'v');
    wrapExporter(s, 'mp4', mp4, {
      async afterPrepare(ctx) {
        await ctx.tracker.ensureDir(out);
        swapForLinkOut(l, out);
      },
    });
    await run(s, 'renderQueue.add', { comp: 'c', output: join(out, 'clip.mp4'), format: 'mp4' });
    const item = await renderOne(s);
    expect(item).toMatchObject({ status: 'failed', files: null, error: { code: 'path_outside_roots' } });
    // ffmpeg wrote into the checked folder (moved aside), never through the link; cleanup removed it all.
    expect(await readdir(l.outside)).toEqual(['secret.png']);
    expect(await readdir(`${out}-old`)).toEqual([]);
  });
});
