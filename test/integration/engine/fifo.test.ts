/**
 * Files that are not regular files (a real FIFO made with mkfifo, a device) are refused before anything is read,
 * everywhere a file is read: import, footage, project open, scripts; confined or not. Before, a FIFO made
 * file.import hang forever (and with it every later call on the connection).
 */
import { execFileSync } from 'node:child_process';
import { realpathSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { createConfinement } from '../../../src/confinement/index.js';
import { createSession } from '../../../src/session.js';
import { tempDir } from '../../helpers/tmp.js';

async function setup() {
  const dir = realpathSync.native(await tempDir());
  const fifo = join(dir, 'pipe.png');
  execFileSync('mkfifo', [fifo]);
  const png = join(dir, 'ok.png');
  await sharp({ create: { width: 4, height: 4, channels: 4, background: '#00ff00' } })
    .png()
    .toFile(png);
  return { dir, fifo, png };
}

/** The code of a call that must fail, within the test's own timeout (a hang fails the test). */
async function code(
  engine: ReturnType<typeof createSession>['engine'],
  id: string,
  params: unknown,
): Promise<string> {
  const r = await engine.execute(id, params);
  if (r.ok) return 'ok';
  expect(r.error.remediation.length).toBeGreaterThan(0);
  return r.error.code;
}

describe.each([
  ['unconfined', false],
  ['confined', true],
] as const)('reads refuse what is not a regular file (%s)', (_name, confined) => {
  it('file.import, project.open, footage and /dev/zero answer bad_argument at once; the engine keeps serving', async () => {
    const { dir, fifo, png } = await setup();
    const confinement = confined ? createConfinement({ readRoots: ['/dev'], writeRoots: [dir] }) : undefined;
    const { engine } = createSession({ confinement });
    expect(await code(engine, 'file.import', { path: fifo })).toBe('bad_argument');
    expect(await code(engine, 'project.open', { path: fifo })).toBe('bad_argument');
    expect(await code(engine, 'file.import', { path: '/dev/zero' })).toBe('bad_argument');
    // The engine still answers, and a real file still imports.
    const imported = await engine.execute<{ id: string }>('file.import', { path: png });
    if (!imported.ok) expect.fail(imported.error.message);
    // Footage that became a FIFO after import: the still fails plainly instead of hanging.
    await engine.execute('comp.new', { name: 'C', width: 8, height: 8 });
    expect(await code(engine, 'layer.addFootage', { footage: imported.result.id })).toBe('ok');
    execFileSync('rm', [png]);
    execFileSync('mkfifo', [png]);
    const still = await engine.execute('frame.save', { path: join(dir, 'still.png') });
    expect(still).toMatchObject({ ok: false });
    expect(engine.document.items.length).toBe(2);
  });
});

describe('scripts', () => {
  it('file.runScript of a FIFO is refused without reading', async () => {
    const { dir } = await setup();
    const script = join(dir, 'script.js');
    execFileSync('mkfifo', [script]);
    const { engine } = createSession();
    expect(await code(engine, 'file.runScript', { path: script })).toBe('bad_argument');
    await writeFile(join(dir, 'real.js'), 'return 1;');
    expect(await code(engine, 'file.runScript', { path: join(dir, 'real.js') })).toBe('ok');
  });
});
