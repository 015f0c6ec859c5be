/**
 * Every command in the catalog, fed seeded random and hostile params on a document with a bit of everything.
 * Whatever comes in, the answer is a result or a coded error with a message and a remedy, never tool_failed (an
 * exception from our own code), and an error leaves the document exactly as it was (the same object).
 * The session is confined to a temp dir: nothing is read or written elsewhere. Scripts and OS handlers are not run.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { realpathSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createConfinement } from '../../../src/confinement/index.js';
import { traitsOf, type Composition, type Engine } from '../../../src/engine/index.js';
import { createSession, type Session } from '../../../src/session.js';
import { run } from '../../helpers/engine.js';
import { hostile, INHERITED, mutate, plausible, rng, shown, type Names } from '../../helpers/fuzz.js';
import { colorRendererUrl } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';

/** Commands that run code or hand files to the desktop: never fuzzed. */
const SKIPPED = new Set(['file.runScript', 'script.run', 'file.executeFile', 'file.revealInFinder']);
// A longer search (other seeds, more rounds): EFFECTCRAFT_FUZZ_SEED=7 EFFECTCRAFT_FUZZ_SCALE=50 npx vitest run fuzz
const SCALE = Number(process.env.EFFECTCRAFT_FUZZ_SCALE ?? 1);
const ITERATIONS = 40 * SCALE;
/** Renders start workers: fewer rounds for long-running commands keep the test fast. */
const LONG_ITERATIONS = 10 * SCALE;
const SEED = Number(process.env.EFFECTCRAFT_FUZZ_SEED ?? 20_240_601);

/** Properties of the fixture's layers, who has them and values they take (and some they do not). */
const NUMBERS = [0, 3, 50, 250, -5, 1e6];
const COLOURS = ['red', '#00ff0080', [0.5, 0.5, 0.5, 1], 'nope'];
const OWNERS = {
  'transform.position': { layer: 'Solid', values: [[10, 20], 5, [1e308, -1e308]] },
  'transform.opacity': { layer: 'Null', values: NUMBERS },
  'text.strokeWidth': { layer: 'Title', values: NUMBERS },
  'text.strokeColor': { layer: 'Title', values: COLOURS },
  'text.text': { layer: 'Title', values: ['Hello', '', 'x'.repeat(100_001)] },
  'text.fontFamily': { layer: 'Title', values: ['Inter', 'Comic Sans', 'constructor'] },
  'text.fontWeight': { layer: 'Title', values: [400, 700, 950] },
  'text.align': { layer: 'Title', values: ['left', 'justify'] },
  'text.ligatures': { layer: 'Title', values: [false, true, 'off', 1] },
  'shape.fillColor': { layer: 'Shape', values: COLOURS },
  'shape.strokeWidth': { layer: 'Shape', values: NUMBERS },
  'shape.outerRadius': { layer: 'Shape', values: NUMBERS },
  'shape.innerRadius': { layer: 'Shape', values: NUMBERS },
  'solid.color': { layer: 'Solid', values: COLOURS },
  'effects.gaussianBlur.radius': { layer: 'Solid', values: NUMBERS },
  'effects.dropShadow.color': { layer: 'Title', values: COLOURS },
};

let session: Session;
let engine: Engine;
let fixture: string;
let fixtureText: string;
let work: string;
let names: Names;

/** Builds the fixture: two compositions, a layer of every kind, effects, keyframes, links, footage, a queue item. */
async function build(dir: string): Promise<void> {
  const png = join(dir, 'in.png');
  await sharp({ create: { width: 4, height: 4, channels: 4, background: '#ff0000' } })
    .png()
    .toFile(png);
  await run(engine, 'comp.new', { name: 'Inner', width: 8, height: 8, duration: 0.2, frameRate: 10 });
  await run(engine, 'comp.new', { name: 'Main', width: 16, height: 16, duration: 0.2, frameRate: 10 });
  await run(engine, 'file.import', { path: png, name: 'Pic' });
  await run(engine, 'layer.addFootage', { footage: 'Pic', name: 'Foot' });
  await run(engine, 'layer.addPrecomp', { source: 'Inner', name: 'Pre' });
  await run(engine, 'layer.addNull', { name: 'Null' });
  await run(engine, 'layer.addAdjustment', { name: 'Adj' });
  await run(engine, 'layer.addSolid', { color: 'teal', name: 'Solid' });
  await run(engine, 'layer.addShape', {
    shape: { type: 'polygon', points: 5, outerRadius: 6 },
    fill: null,
    name: 'Shape',
  });
  await run(engine, 'layer.addText', { text: 'Hi', name: 'Title' });
  await run(engine, 'effect.add', { layer: 'Solid', effect: 'gaussianBlur' });
  await run(engine, 'effect.add', { layer: 'Title', effect: 'dropShadow' });
  await run(engine, 'property.setKeyframe', { layer: 'Solid', property: 'opacity', time: 0.1, value: 50 });
  await run(engine, 'layer.setParent', { layer: 'Title', parent: 'Null' });
  await run(engine, 'layer.setTrackMatte', { layer: 'Solid', matte: 'Shape' });
  await run(engine, 'renderQueue.add', { comp: 'Main', output: join(dir, 'out_[##].png') });
  await run(engine, 'project.save', { path: fixture });
}

/**
 * Opens a fresh copy of the fixture (a command may have saved over the copy), with a step to undo and one to redo
 * when the command under test needs them.
 */
async function reset(history: boolean): Promise<void> {
  if ((await readFile(work, 'utf8').catch(() => '')) !== fixtureText) await writeFile(work, fixtureText);
  await run(engine, 'project.open', { path: work });
  if (!history) return;
  await run(engine, 'layer.rename', { layer: 'Adj', name: 'Adjust' });
  await run(engine, 'layer.rename', { layer: 'Adjust', name: 'Adj' });
  await run(engine, 'edit.undo');
}

beforeAll(async () => {
  const dir = realpathSync.native(await tempDir('ec-fuzz-'));
  const confinement = createConfinement({ readRoots: [dir], writeRoots: [dir] });
  session = createSession({ confinement, renderQueue: { rendererModule: colorRendererUrl, maxWorkers: 1 } });
  engine = session.engine;
  fixture = join(dir, 'fixture.ecproj');
  work = join(dir, 'work.ecproj');
  await build(dir);
  fixtureText = await readFile(fixture, 'utf8');
  const main = engine.document.items.find((i) => i.name === 'Main') as Composition;
  names = {
    comps: engine.document.items.filter((i) => i.type === 'composition').flatMap((c) => [c.id, c.name]),
    layers: main.layers.flatMap((l) => [l.id, l.name]),
    effects: ['gaussianBlur', 'glow', 'tint', ...main.layers.flatMap((l) => l.effects.map((e) => e.id))],
    footage: engine.document.items.filter((i) => i.type === 'footage').flatMap((f) => [f.id, f.name]),
    queue: engine.document.renderQueue.map((q) => q.id),
    properties: [
      'transform.position',
      'opacity',
      ...Object.keys(OWNERS),
      ...INHERITED.map((n) => `effects.gaussianBlur.${n}`),
    ],
    owners: OWNERS,
    colours: ['red', '#abc', [0, 0.5, 1], ...INHERITED],
    paths: {
      read: [work, join(dir, 'in.png'), join(dir, 'missing.png')],
      write: [
        join(dir, 'saved.ecproj'),
        join(dir, 'f_[###].png'),
        join(dir, 'frame.png'),
        join(dir, 'x.mp4'),
      ],
    },
  };
});

afterAll(async () => {
  session?.renderQueue.stop();
  await session?.renderQueue.idle();
});

describe('every command, hostile params', () => {
  it(
    `answers with a result or a coded error and leaves the document unchanged on error (seed ${SEED})`,
    async () => {
      const problems: string[] = [];
      const schemas = new Map(engine.list({ schemas: true }).map((c) => [c.id, c.params]));
      let pristine: unknown = null;
      let withHistory = false;
      for (const command of engine.commands()) {
        if (SKIPPED.has(command.id)) continue;
        const r = rng(SEED ^ hash(command.id));
        const rounds = traitsOf(command).longRunning ? LONG_ITERATIONS : ITERATIONS;
        for (let i = 0; i < rounds; i++) {
          // A refused command leaves the document as it was (that is checked below): no need to open it again.
          const history = command.id.startsWith('edit.');
          if (engine.document !== pristine || engine.projectPath !== work || history !== withHistory) {
            await reset(history);
            pristine = engine.document;
            withHistory = history;
          }
          const shaped = plausible(r, schemas.get(command.id) as object, names);
          const kind = r();
          const params = kind < 0.5 ? shaped : kind < 0.8 ? mutate(r, shaped) : hostile(r);
          const before = engine.document;
          const snapshot = JSON.stringify(before);
          const answer = await engine.execute(command.id, params);
          await session.renderQueue.idle();
          const where = `${command.id} #${i} ${shown(params)}`;
          if (answer.ok) continue;
          const { code, message, remediation } = answer.error;
          if (code === 'tool_failed') problems.push(`${where}: tool_failed: ${message}`);
          if (!message || !remediation) problems.push(`${where}: ${code} without a message or remedy`);
          if (engine.document !== before || JSON.stringify(engine.document) !== snapshot)
            problems.push(`${where}: ${code}, and the document changed`);
        }
      }

      expect(problems).toEqual([]);
      // Nothing reached what every object inherits.
      expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    },
    120_000 * SCALE,
  );
});

function hash(s: string): number {
  let h = 0;
  for (const c of s) h = (Math.imul(h, 31) + c.charCodeAt(0)) | 0;
  return h;
}
