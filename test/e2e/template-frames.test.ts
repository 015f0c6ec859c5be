/**
 * One frame of a template with values, without a render: `effectcraft-cli still --props` (a relative footage
 * value against the current directory, the project file unchanged, a bad value and a missing file refused with
 * their codes) and render_preview's props over real stdio, confined: a footage value outside the read roots is
 * refused before anything is drawn, one inside shows.
 */
import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { newEngine, run } from '../helpers/engine.js';
import { runCli } from '../helpers/spawn.js';
import { tempDir } from '../helpers/tmp.js';
import { RawServer, type Message } from './mcp-helpers.js';

async function png(path: string, background: string): Promise<string> {
  await sharp({ create: { width: 16, height: 16, channels: 3, background } })
    .png()
    .toFile(path);
  return path;
}

/** A 32x16 template: its left half a picture (input "clip", default red), its right half a bar ("accent"). */
async function template(dir: string): Promise<string> {
  const engine = newEngine();
  await run(engine, 'comp.new', { name: 'T', width: 32, height: 16, frameRate: 10, duration: 1 });
  const { id: footage } = await run<{ id: string }>(engine, 'file.import', {
    path: await png(join(dir, 'red.png'), '#ff0000'),
  });
  const { id: pic } = await run<{ id: string }>(engine, 'layer.addFootage', { footage });
  await run(engine, 'property.set', { layer: pic, property: 'transform.position', value: [8, 8] });
  const { id: bar } = await run<{ id: string }>(engine, 'layer.addSolid', {
    color: '#008000',
    width: 16,
    height: 16,
  });
  await run(engine, 'property.set', { layer: bar, property: 'transform.position', value: [24, 8] });
  await run(engine, 'input.define', {
    name: 'clip',
    type: 'footage',
    bind: [{ layer: pic, property: 'source' }],
  });
  await run(engine, 'input.define', {
    name: 'accent',
    type: 'color',
    bind: [{ layer: bar, property: 'solid.color' }],
  });
  await run(engine, 'input.define', {
    name: 'fade',
    type: 'number',
    bind: [{ layer: bar, property: 'transform.opacity' }],
  });
  const path = join(dir, 'template.ecproj');
  await run(engine, 'project.save', { path });
  return path;
}

async function pixels(image: Buffer | string): Promise<(x: number, y: number) => number[]> {
  const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
  return (x, y) => [
    ...data.subarray((y * info.width + x) * info.channels, (y * info.width + x) * info.channels + 3),
  ];
}

describe('a frame of a template with values', () => {
  it('still --props shows them; the project file is unchanged; a bad value or a missing file is refused', async () => {
    const dir = await tempDir();
    const project = await template(dir);
    await mkdir(join(dir, 'clips'));
    await png(join(dir, 'clips', 'blue.png'), '#0000ff');
    const saved = await readFile(project, 'utf8');

    const plain = await runCli(['still', project, '--frame', '0', '-o', 'plain.png'], { cwd: dir });
    expect(plain.code, plain.stderr).toBe(0);
    const before = await pixels(join(dir, 'plain.png'));
    expect(before(4, 8)).toEqual([255, 0, 0]);
    expect(before(28, 8)).toEqual([0, 128, 0]);

    const props = JSON.stringify({ clip: join('clips', 'blue.png'), accent: '#ffff00' });
    const given = await runCli(['still', project, '--frame', '0', '-o', 'given.png', '--props', props], {
      cwd: dir,
    });
    expect(given.code, given.stderr).toBe(0);
    const after = await pixels(join(dir, 'given.png'));
    expect(after(4, 8)).toEqual([0, 0, 255]);
    expect(after(28, 8)).toEqual([255, 255, 0]);
    expect(await readFile(project, 'utf8')).toBe(saved);

    const bad = await runCli(
      ['still', project, '--frame', '0', '-o', 'bad.png', '--props', '{"accent": 3}'],
      {
        cwd: dir,
      },
    );
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/accent.*\[bad_argument\]/);
    const gone = await runCli(
      ['still', project, '--frame', '0', '-o', 'gone.png', '--props', '{"clip": "clips/none.png"}'],
      { cwd: dir },
    );
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain('[no_such_file]');
    // An inline array is not an object (until 2026-12-08 it was looked for as a file named "[...]").
    const list = await runCli(
      ['still', project, '--frame', '0', '-o', 'list.png', '--props', '[{"accent": "#ffff00"}]'],
      { cwd: dir },
    );
    expect(list.code).toBe(2);
    expect(list.stderr).toContain('--props must be a JSON object');
    // A file that never ends is refused at a bound (until 2026-12-08 the process grew until it aborted).
    const endless = await runCli(
      ['still', project, '--frame', '0', '-o', 'endless.png', '--props', '/dev/zero'],
      { cwd: dir },
    );
    expect(endless.code).toBe(2);
    expect(endless.stderr).toContain('--props: "/dev/zero" holds more than 16 MiB');
    // A value out of a bound property's range: the remedy says the range, not the error again.
    const huge = await runCli(
      ['still', project, '--frame', '0', '-o', 'huge.png', '--props', '{"fade": 1e308}'],
      { cwd: dir },
    );
    expect(huge.code).toBe(2);
    expect(huge.stderr).toMatch(/\[bad_argument\]\n {2}Pass --props with a number from /);
  });

  it('render_preview props, confined: a footage value outside the read roots is refused, one inside shows', async () => {
    const dir = await tempDir();
    const inside = join(dir, 'work');
    const outside = join(dir, 'elsewhere');
    await mkdir(inside);
    await mkdir(outside);
    const project = await template(inside);
    const blue = await png(join(inside, 'blue.png'), '#0000ff');
    const secret = await png(join(outside, 'secret.png'), '#ffffff');
    const server = new RawServer(['--automation-write-root', inside]);
    expect((await server.initialize()).error).toBeUndefined();
    let id = 1;
    const call = (name: string, args: Record<string, unknown>): Promise<Message> =>
      server.request(id++, 'tools/call', { name, arguments: args });
    expect(
      (await call('command_run', { id: 'project.open', params: { path: project } })).result?.isError,
    ).toBeFalsy();

    const refused = await call('render_preview', { props: { clip: secret } });
    expect(refused.result?.isError).toBe(true);
    expect((refused.result?.structuredContent as { code?: string }).code).toBe('path_outside_roots');
    // Named as the value given, where it was "frame.preview reads [1]" (until 2026-12-08).
    expect((refused.result?.structuredContent as { message?: string }).message).toMatch(/^"props\.clip": /);

    const shown = await call('render_preview', { props: { clip: blue, accent: '#ffff00' } });
    expect(shown.result?.isError).toBeFalsy();
    const image = (shown.result?.content as { type: string; data?: string }[]).find(
      (c) => c.type === 'image',
    );
    const px = await pixels(Buffer.from(image!.data!, 'base64'));
    expect(px(4, 8)).toEqual([0, 0, 255]);
    expect(px(28, 8)).toEqual([255, 255, 0]);
    server.endInput();
    expect(await server.exited).toBe(0);
  });
});
