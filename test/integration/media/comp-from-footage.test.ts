/**
 * comp.fromFootage: a composition the clip's size, rate (29.97 as 30000/1001) and length with the clip as its
 * layer, by real files; a variable-rate clip conformed to the nearest common rate with a warning; a sequence; a
 * still; another frame with a fit; and the refusals (sound only, a width without a height), changing nothing.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { expect } from 'vitest';
import type { Composition } from '../../../src/engine/index.js';
import { fails, newEngine, run } from '../../helpers/engine.js';
import { describeWithFfmpeg, itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { numberedClip, numberedSequence, variableRateClip } from '../../helpers/media.js';
import { tempDir } from '../../helpers/tmp.js';

/** Writes what an ffmpeg lavfi source makes (`frames` pictures, for a still) to `out`. */
function lavfi(source: string, out: string, frames?: number): void {
  const count = frames === undefined ? [] : ['-frames:v', String(frames)];
  execFileSync('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-f', 'lavfi', '-i', source, ...count, out]);
}

type Made = { id: string; layer: string; width: number; height: number; frameRate: number; duration: number };

function comps(engine: ReturnType<typeof newEngine>): Composition[] {
  return engine.document.items.filter((i): i is Composition => i.type === 'composition');
}

describeWithFfmpeg('comp.fromFootage', () => {
  itWithFfmpeg(
    "takes a clip's size, exact rate and length, with the clip as its layer; one undo step",
    async () => {
      const dir = await tempDir();
      const clip = await numberedClip(dir, 'h264', '30000/1001', 45, { size: '96x54' });
      const engine = newEngine();
      await run(engine, 'file.import', { path: clip, name: 'Interview' });
      const made = await run<Made>(engine, 'comp.fromFootage', { footage: 'Interview' });
      expect(made).toMatchObject({ width: 96, height: 54, frameRate: 30000 / 1001 });
      expect(made.duration).toBeCloseTo(45 / (30000 / 1001), 6);
      const [comp] = comps(engine);
      expect(comp).toMatchObject({
        id: made.id,
        name: 'Interview',
        width: 96,
        height: 54,
        frameRate: 30000 / 1001,
      });
      expect(engine.document.activeComp).toBe(made.id);
      expect(comp!.layers.map((l) => [l.id, l.source.kind, l.outPoint])).toEqual([
        [made.layer, 'footage', made.duration],
      ]);
      // Its frames are the clip's: 45 of them.
      const view = await run<{ activeComposition: { frames: number } }>(engine, 'project.inspect');
      expect(view.activeComposition.frames).toBe(45);
      await run(engine, 'edit.undo');
      expect(comps(engine)).toHaveLength(0);
    },
  );

  itWithFfmpeg('conforms a variable-rate clip to the nearest common rate, and says so', async () => {
    const dir = await tempDir();
    // 10 frames 1/24 s apart, then 1/20 s apart: an average near 21 fps, nearest 23.976.
    const { path } = await variableRateClip(dir, 30, 'h264', 'mp4', { first: 24, rest: 20 });
    const engine = newEngine();
    const { id: footage } = await run<{ id: string }>(engine, 'file.import', { path });
    const r = await engine.execute<Made>('comp.fromFootage', { footage });
    expect(r.ok && r.result.frameRate).toBe(24000 / 1001);
    expect(r.ok && r.warnings?.join(' ')).toMatch(/variable frame rate .* 23\.976 fps/);
    // frameRate given: taken as given, no warning.
    const given = await engine.execute<Made>('comp.fromFootage', { footage, frameRate: 25 });
    expect(given.ok && given.result.frameRate).toBe(25);
    expect(given.ok && given.warnings).toBeFalsy();
  });

  itWithFfmpeg('an image sequence at its rate; a still at 30 fps for 10 s', async () => {
    const dir = await tempDir();
    const pattern = await numberedSequence(dir, 12);
    const still = join(dir, 'card.png');
    lavfi('color=red:s=40x30', still, 1);
    const engine = newEngine();
    const { id: seq } = await run<{ id: string }>(engine, 'file.import', { path: pattern, frameRate: 12 });
    expect(await run<Made>(engine, 'comp.fromFootage', { footage: seq })).toMatchObject({
      width: 64,
      height: 48,
      frameRate: 12,
      duration: 1,
    });
    const { id: card } = await run<{ id: string }>(engine, 'file.import', { path: still });
    expect(await run<Made>(engine, 'comp.fromFootage', { footage: card })).toMatchObject({
      width: 40,
      height: 30,
      frameRate: 30,
      duration: 10,
    });
  });

  itWithFfmpeg('another frame with a fit: a vertical cut of a landscape clip', async () => {
    const dir = await tempDir();
    const clip = await numberedClip(dir, 'h264', '25', 25, { size: '160x90' });
    const engine = newEngine();
    const { id: footage } = await run<{ id: string }>(engine, 'file.import', { path: clip });
    const made = await run<Made>(engine, 'comp.fromFootage', {
      footage,
      name: 'Vertical',
      width: 90,
      height: 160,
      fit: 'cover',
    });
    expect(made).toMatchObject({ width: 90, height: 160, frameRate: 25, duration: 1 });
    const layer = comps(engine)[0]!.layers[0]!;
    expect(layer.fit).toBe('cover');
    expect((layer.transform.scale.value as number[])[1]).toBeCloseTo((160 / 90) * 100, 4);
  });

  itWithFfmpeg('refuses sound only and a width without a height, leaving no composition', async () => {
    const dir = await tempDir();
    const tone = join(dir, 'tone.wav');
    lavfi('sine=duration=2', tone);
    const clip = await numberedClip(dir, 'h264', '25', 10);
    const engine = newEngine();
    const { id: sound } = await run<{ id: string }>(engine, 'file.import', { path: tone });
    const { id: footage } = await run<{ id: string }>(engine, 'file.import', { path: clip });
    const r = await engine.execute('comp.fromFootage', { footage: sound });
    expect(!r.ok && r.error.remediation).toContain('comp.new {width, height, duration: 2}');
    expect(await fails(engine, 'comp.fromFootage', { footage, width: 100 })).toBe('bad_argument');
    expect(comps(engine)).toHaveLength(0);
  });
});
