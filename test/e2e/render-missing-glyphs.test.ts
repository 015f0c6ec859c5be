/**
 * Text the bundled fonts cannot draw renders as boxes. render_preview said so; a render (a --props value, a
 * --data row's name) ended done with boxes in every frame, exit 0 and not a word: the renderer's warnings stay in
 * its workers, and `still` (frame.save) dropped them. Both now say so, on stderr and in --json.
 */
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { newEngine, run } from '../helpers/engine.js';
import { runCli } from '../helpers/spawn.js';
import { tempDir } from '../helpers/tmp.js';

/** A saved 32x16 template whose text layer "Name" shows the input "name". */
async function templateProject(dir: string): Promise<string> {
  const engine = newEngine();
  await run(engine, 'comp.new', { name: 'T', width: 32, height: 16, frameRate: 10, duration: 1 });
  await run(engine, 'layer.addText', { name: 'Name', text: 'x', fontSize: 10 });
  await run(engine, 'input.define', {
    name: 'name',
    type: 'text',
    bind: [{ layer: 'Name', property: 'text.text' }],
  });
  const path = join(dir, 'template.ecproj');
  await run(engine, 'project.save', { path });
  return path;
}

describe('a render of text the bundled fonts cannot draw', () => {
  it('--props {"name": "山田"}: done, with a warning naming the layer and the characters; Latin text: none', async () => {
    const dir = await tempDir();
    const project = await templateProject(dir);
    const args = ['render', project, '--comp', 'T', '--output', 'out_[#].png', '--frames', '0', '--json'];
    const r = await runCli([...args, '--props', '{"name": "山田"}'], { cwd: dir, timeoutMs: 120_000 });
    expect(r.code).toBe(0);
    const item = JSON.parse(r.stdout).items[0];
    expect(item.status).toBe('done');
    expect(item.warnings.join('\n')).toMatch(/Text layer "Name" of "T": The bundled fonts cannot draw 山 田/);
    expect(r.stderr).toMatch(/cannot draw 山 田/);
    const latin = await runCli([...args, '--props', '{"name": "Ada"}'], { cwd: dir, timeoutMs: 120_000 });
    expect(latin.code).toBe(0);
    expect(JSON.parse(latin.stdout).items[0]).not.toHaveProperty('warnings');
  });

  it('still (frame.save): the warning on stderr and in --json, as render_preview gives it', async () => {
    // frame.save dropped the renderer's warnings: `still` of the same text wrote the boxes, exit 0, silent.
    const dir = await tempDir();
    const project = await templateProject(dir);
    const engine = newEngine();
    await run(engine, 'project.open', { path: project });
    await run(engine, 'property.set', { layer: 'Name', property: 'text.text', value: '山田' });
    await run(engine, 'project.save', {});
    const args = ['still', project, '--comp', 'T', '--frame', '0', '-o', 'still.png', '--json'];
    const r = await runCli(args, { cwd: dir, timeoutMs: 120_000 });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).warnings.join('\n')).toMatch(
      /Text layer "Name": The bundled fonts cannot draw 山 田/,
    );
    expect(r.stderr).toMatch(/effectcraft-cli still: .*cannot draw 山 田/);
  });
});
