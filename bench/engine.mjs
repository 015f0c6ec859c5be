// Engine benchmark: execute() throughput for a typical edit, and undo/redo on a 1,000-layer project.
// Baseline in the same process: the same change applied with immer directly (no catalog, validation or history).
import { produce } from 'immer';
import { Engine, engineCommands } from '../dist/engine/index.js';
import { createNodePorts } from '../dist/node-io/engine-ports.js';
import { fmt, median, sample } from './stats.mjs';

const engine = new Engine({ commands: engineCommands(), ports: createNodePorts() });
const ok = async (id, params) => {
  const r = await engine.execute(id, params);
  if (!r.ok) throw new Error(`${id}: ${r.error.message}`);
  return r.result;
};

await ok('comp.new', { name: 'Big', width: 1920, height: 1080 });
const build = await sample(
  () => ok('layer.addSolid', { color: '#336699', width: 100, height: 100 }),
  1000,
  0,
);
const comp = () => engine.document.items[0];
const target = comp().layers[500].id;

const N = 2000;
const edit = await sample(
  (i) => ok('property.set', { layer: target, property: 'transform.position', value: [i % 1920, 540] }),
  N,
);
const baseline = await sample((i) => {
  produce(engine.document, (d) => {
    const l = d.items[0].layers.find((x) => x.id === target);
    l.transform.position.value = [i % 1920, 540];
  });
}, N);
const kf = await sample(
  (i) =>
    ok('property.setKeyframe', {
      layer: target,
      property: 'transform.opacity',
      time: (i % 100) / 10,
      value: i % 100,
    }),
  N,
);

// Undo/redo of 200 edits on the 1,000-layer document.
for (let i = 0; i < 200; i++)
  await ok('property.set', { layer: comp().layers[i].id, property: 'transform.rotation', value: i });
const undo = await sample(() => ok('edit.undo', {}), 200, 0);
const redo = await sample(() => ok('edit.redo', {}), 200, 0);

const m = { edit: median(edit), base: median(baseline) };
console.log('engine (1,000-layer composition, medians)');
console.log(`  layer.addSolid while growing to 1,000 layers  ${fmt(median(build))}`);
console.log(
  `  execute property.set                          ${fmt(m.edit)}  (${Math.round(1000 / m.edit)} edits/s)`,
);
console.log(
  `  baseline: the same immer change, no catalog    ${fmt(m.base)}  ratio ${(m.edit / m.base).toFixed(2)}x`,
);
console.log(`  execute property.setKeyframe                  ${fmt(median(kf))}`);
console.log(
  `  edit.undo                                     ${fmt(median(undo))}  ratio to an edit ${(median(undo) / m.edit).toFixed(2)}x`,
);
console.log(
  `  edit.redo                                     ${fmt(median(redo))}  ratio to an edit ${(median(redo) / m.edit).toFixed(2)}x`,
);
