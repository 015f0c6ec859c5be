/**
 * `effectcraft-cli render` of a queue holding two templates (a lower third and a social clip) from one data file
 * or one --props: each value goes to the items whose composition has that input (src/cli/item-props.ts). Until
 * 2026-12-07 every row failed ("S" has no input "accent") and --props was a usage error.
 */
import { describe, expect, it } from 'vitest';
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { newEngine, run } from '../helpers/engine.js';
import { runCli } from '../helpers/spawn.js';
import { tempDir } from '../helpers/tmp.js';

/** Comp T: a bar coloured by "accent"; comp S: a background coloured by "bg"; both take "name". */
async function twoTemplates(dir: string): Promise<string> {
  const engine = newEngine();
  for (const [comp, input, colour] of [
    ['T', 'accent', '#008080'],
    ['S', 'bg', '#808000'],
  ] as const) {
    await run(engine, 'comp.new', { name: comp, width: 8, height: 8, frameRate: 10, duration: 1 });
    await run(engine, 'layer.addSolid', { comp, name: 'Fill', color: colour, width: 8, height: 8 });
    await run(engine, 'layer.addText', { comp, name: 'Name', text: 'x', fontSize: 1 });
    await run(engine, 'property.set', { comp, layer: 'Name', property: 'transform.opacity', value: 0 });
    await run(engine, 'input.define', {
      comp,
      name: input,
      type: 'color',
      bind: [{ layer: 'Fill', property: 'solid.color' }],
    });
    await run(engine, 'input.define', {
      comp,
      name: 'name',
      type: 'text',
      bind: [{ layer: 'Name', property: 'text.text' }],
    });
    await run(engine, 'renderQueue.add', {
      comp,
      output: join(dir, `out/{name}_${comp}_[#].png`),
      frameRange: { start: 0, end: 0 },
    });
  }
  const path = join(dir, 'two.ecproj');
  await run(engine, 'project.save', { path });
  return path;
}

async function pixel(path: string): Promise<number[]> {
  const { data } = await sharp(path).raw().toBuffer({ resolveWithObject: true });
  return [...data.subarray(0, 3)];
}

describe('effectcraft-cli render of two templates at once', () => {
  it('--data: a row renders both, each with the columns that are its inputs', async () => {
    const dir = await tempDir();
    const project = await twoTemplates(dir);
    await writeFile(join(dir, 'rows.csv'), 'name,accent,bg\nAda,#ff0000,#0000ff\nBo,,#00ff00\n');
    const r = await runCli(['render', project, '--data', 'rows.csv'], { cwd: dir, timeoutMs: 120_000 });
    expect(r.stdout).toMatch(/2 rows done, 0 failed/);
    expect(r.code).toBe(0);
    expect(await pixel(join(dir, 'out/Ada_T_0.png'))).toEqual([255, 0, 0]);
    expect(await pixel(join(dir, 'out/Ada_S_0.png'))).toEqual([0, 0, 255]);
    expect(await pixel(join(dir, 'out/Bo_T_0.png'))).toEqual([0, 128, 128]);
    expect(await pixel(join(dir, 'out/Bo_S_0.png'))).toEqual([0, 255, 0]);
  });

  it('--props: each value goes to the compositions that have the input; a name none has is still refused', async () => {
    const dir = await tempDir();
    const project = await twoTemplates(dir);
    const r = await runCli(
      ['render', project, '--props', '{"name": "Cy", "accent": "#ff0000", "bg": "#0000ff"}'],
      {
        cwd: dir,
        timeoutMs: 120_000,
      },
    );
    expect(r.code).toBe(0);
    expect(await pixel(join(dir, 'out/Cy_T_0.png'))).toEqual([255, 0, 0]);
    expect(await pixel(join(dir, 'out/Cy_S_0.png'))).toEqual([0, 0, 255]);
    const typo = await runCli(['render', project, '--props', '{"acent": "#ff0000"}'], { cwd: dir });
    expect(typo.code).toBe(2);
    expect(typo.stderr).toMatch(/no input "acent"/);
    expect((await readdir(join(dir, 'out'))).filter((n) => n.endsWith('.png')).sort()).toEqual([
      'Cy_S_0.png',
      'Cy_T_0.png',
    ]);
  });
});
