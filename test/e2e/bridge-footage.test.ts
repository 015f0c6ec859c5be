/**
 * Bridge mode, confinement of footage reads: an unconfined `effectcraft-cli app` driven by a confined
 * `effectcraft-cli mcp --bridge PORT --automation-read-root R`. Every command that draws a composition declares
 * the footage it reads (through precomps, nested ones included), so the MCP side refuses before forwarding:
 * the app, which is not confined, would otherwise draw the outside footage and send its pixels back.
 */
import { existsSync, realpathSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createSession } from '../../src/session.js';
import { tempDir } from '../helpers/tmp.js';
import { appAndClient, call, run } from './bridge-helpers.js';

const BLUE = { r: 0, g: 0, b: 255 };

/**
 * Saves (unconfined, in process) a project at `projectPath` whose comp "Main" nests "Mid", which nests "Inner",
 * which holds a footage layer of `footage` (a blue PNG).
 */
async function nestedFootageProject(footage: string, projectPath: string): Promise<void> {
  await sharp({ create: { width: 16, height: 16, channels: 3, background: BLUE } })
    .png()
    .toFile(footage);
  const { engine } = createSession();
  const ok = async (id: string, params: Record<string, unknown>) => {
    const r = await engine.execute<{ id: string }>(id, params);
    if (!r.ok) throw new Error(`${id}: ${JSON.stringify(r.error)}`);
    return r.result;
  };
  const size = { width: 16, height: 16, duration: 1, frameRate: 1 };
  await ok('comp.new', { name: 'Inner', ...size });
  const item = await ok('file.import', { path: footage });
  await ok('layer.addFootage', { comp: 'Inner', footage: item.id });
  await ok('comp.new', { name: 'Mid', ...size });
  await ok('layer.addPrecomp', { comp: 'Mid', source: 'Inner' });
  await ok('comp.new', { name: 'Main', ...size });
  await ok('layer.addPrecomp', { comp: 'Main', source: 'Mid' });
  await ok('project.save', { path: projectPath });
}

async function bluePixels(png: Buffer): Promise<number> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  let n = 0;
  for (let i = 0; i < data.length; i += info.channels)
    if (data[i] === 0 && data[i + 1] === 0 && data[i + 2] === 255) n++;
  return n;
}

/** An unconfined app, and an MCP server in bridge mode confined to read `readRoot` and write `writeRoot`. */
async function confinedBridge(dir: string, readRoot: string, writeRoot: string) {
  const roots = ['--automation-read-root', readRoot, '--automation-write-root', writeRoot];
  return (await appAndClient(dir, [], roots)).client;
}

describe('mcp --bridge --automation-read-root with an unconfined app', () => {
  it('refuses previews and stills of footage outside the roots, nested two precomps deep', async () => {
    const dir = realpathSync.native(await tempDir('ec-bridge-footage-'));
    const [root, out, outside] = ['root', 'out', 'outside'].map((d) => join(dir, d)) as [
      string,
      string,
      string,
    ];
    for (const d of [root, out, outside]) await mkdir(d);
    const projectPath = join(root, 'outside-footage.ecproj');
    await nestedFootageProject(join(outside, 'secret.png'), projectPath);
    const client = await confinedBridge(dir, root, out);

    // The project file is inside the read root: opening it is allowed (its footage is not read yet).
    expect((await run(client, 'project.open', { path: projectPath })).isError).toBe(false);

    const preview = await call(client, 'render_preview', { comp: 'Main' });
    expect(preview).toMatchObject({ isError: true, body: { code: 'path_outside_roots' } });
    expect(preview.content.some((c) => (c as { type: string }).type === 'image')).toBe(false);
    expect(JSON.stringify(preview)).not.toContain('"png"');

    // The same through command_run, and for a nested comp on its own.
    for (const comp of ['Main', 'Mid', 'Inner']) {
      const r = await run(client, 'frame.preview', { comp });
      expect(r).toMatchObject({ isError: true, body: { code: 'path_outside_roots' } });
    }

    // A still into the write root is refused for its footage, not for its path: nothing is written.
    const still = join(out, 'still.png');
    const saved = await run(client, 'frame.save', { comp: 'Main', path: still });
    expect(saved).toMatchObject({ isError: true, body: { code: 'path_outside_roots' } });
    expect(existsSync(still)).toBe(false);

    // The final render says the same (it already did: the check is the same declaration).
    await run(client, 'renderQueue.add', { comp: 'Main', output: join(out, 'f_[##].png') });
    const render = await run(client, 'renderQueue.render', {});
    expect(render).toMatchObject({ isError: true, body: { code: 'path_outside_roots' } });
  });

  it('still previews and saves footage inside the roots', async () => {
    const dir = realpathSync.native(await tempDir('ec-bridge-footage-'));
    const [root, out] = ['root', 'out'].map((d) => join(dir, d)) as [string, string];
    for (const d of [root, out]) await mkdir(d);
    const projectPath = join(root, 'inside-footage.ecproj');
    await nestedFootageProject(join(root, 'inside.png'), projectPath);
    const client = await confinedBridge(dir, root, out);
    expect((await run(client, 'project.open', { path: projectPath })).isError).toBe(false);

    const preview = await call(client, 'render_preview', { comp: 'Main' });
    expect(preview.isError).toBe(false);
    const image = preview.content.find((c) => (c as { type: string }).type === 'image') as { data: string };
    expect(await bluePixels(Buffer.from(image.data, 'base64'))).toBe(16 * 16);

    const still = join(out, 'still.png');
    expect((await run(client, 'frame.save', { comp: 'Main', path: still })).isError).toBe(false);
    expect(existsSync(still)).toBe(true);
  });
});
