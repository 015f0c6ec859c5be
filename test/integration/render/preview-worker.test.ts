/**
 * frame.preview and frame.save draw in the session's preview worker (off the main thread): the same bytes as
 * the main-thread renderer, a cancelled frame stops at once, and the next frame after it renders.
 */
import { execFile } from 'node:child_process';
import { readFile, writeFile } from 'node:fs/promises';
import { promisify } from 'node:util';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Engine } from '../../../src/engine/index.js';
import { encodeFrame } from '../../../src/render/encode.js';
import { createFrameRenderer, encodeStill } from '../../../src/render/index.js';
import { createSession } from '../../../src/session.js';
import { distDir } from '../../helpers/cli.js';
import { fanOutSteps } from '../../helpers/fan-out.js';
import { tempDir } from '../../helpers/tmp.js';

const golden = fileURLToPath(new URL('../../../fixtures/golden/', import.meta.url));

async function ok<R>(engine: Engine, id: string, params: unknown, signal?: AbortSignal): Promise<R> {
  const r = await engine.execute<R>(id, params, { signal });
  if (!r.ok) throw new Error(`${id}: ${r.error.code} ${r.error.message}`);
  return r.result;
}

describe('the preview worker', () => {
  it.each(['kinds', 'blend', 'mattes', 'effects', 'animation'])(
    'previews and saves %s byte for byte as the main-thread renderer does',
    async (name) => {
      const { engine } = createSession();
      await ok(engine, 'project.open', { path: join(golden, `${name}.ecproj`) });
      const doc = engine.document;
      const comp = doc.items.find((i) => i.id === doc.activeComp)!;
      if (comp.type !== 'composition') throw new Error('no active comp');
      const main = createFrameRenderer({ readFile: (p) => readFile(p) });
      // 0.5 s falls in a frame that starts at or before it: that frame's start is what both draw.
      const at = Math.floor(0.5 * comp.frameRate + 1e-9) / comp.frameRate;

      const preview = await ok<{ png: string }>(engine, 'frame.preview', { time: 0.5, max_side: 300 });
      const scale = Math.min(1, 300 / Math.max(comp.width, comp.height));
      const frame = await main.renderFrame(doc, comp.id, at, { scale, missingFootage: 'placeholder' });
      const expected = await encodeFrame(frame.rgba, frame.width, frame.height, frame.premultiplied, {
        kind: 'png',
        level: 6,
      });
      expect(Buffer.from(preview.png, 'base64').equals(expected)).toBe(true);

      const dir = await tempDir();
      await ok(engine, 'frame.save', { time: 0.5, path: join(dir, 'still.png'), transparent: true });
      const full = await main.renderFrame(doc, comp.id, at, { transparent: true, missingFootage: 'fail' });
      expect((await readFile(join(dir, 'still.png'))).equals(await encodeStill(full, 'png'))).toBe(true);
      main.dispose();
    },
  );

  it('stops a cancelled preview at once, and renders the next one', async () => {
    const { engine } = createSession();
    // Minutes of drawing (see test/e2e/mcp-preview.test.ts); cancelled after a moment.
    for (const s of fanOutSteps({ levels: 4, width: 9, size: 2048, offsetTimes: true, leafBlur: 40 }))
      await ok(engine, s.id, s.params);
    const controller = new AbortController();
    const heavy = engine.execute(
      'frame.preview',
      { comp: 'F4', max_side: 2048 },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 500);
    const r = await heavy;
    expect(r.ok ? 'ok' : r.error.code).toBe('cancelled');
    // Cancelled before it starts: refused without drawing.
    const early = await engine.execute('frame.preview', { comp: 'F4' }, { signal: AbortSignal.abort() });
    expect(early.ok ? 'ok' : early.error.code).toBe('cancelled');
    const next = await ok<{ size: { width: number } }>(engine, 'frame.preview', { comp: 'F0', max_side: 64 });
    expect(next.size.width).toBe(64);
  });

  it('keeps a plain Node process alive for a frame after frames cancelled while the worker starts', async () => {
    // The worker is unreferenced while idle (it never holds a process open), and referenced while a frame is
    // drawn: a cancelled frame must not unreference it under the frame that follows.
    const script = `
      const { createSession } = await import(${JSON.stringify(join(distDir, 'session.js'))});
      const { engine } = createSession();
      await engine.execute('comp.new', { width: 64, height: 64 });
      for (let i = 0; i < 5; i++) {
        const c = new AbortController();
        setTimeout(() => c.abort(), i);
        await engine.execute('frame.preview', {}, { signal: c.signal });
      }
      const r = await engine.execute('frame.preview', {});
      console.log(r.ok ? 'drawn' : JSON.stringify(r.error));`;
    const file = join(await tempDir(), 'cancel-then-draw.mjs');
    await writeFile(file, script);
    const { stdout } = await promisify(execFile)(process.execPath, [file]);
    expect(stdout.trim()).toBe('drawn');
  });
});
