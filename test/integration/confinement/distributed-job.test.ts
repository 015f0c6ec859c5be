// A worker's confinement for a job of a confined `mcp --redis` server (src/render/distributed/job-confinement.ts):
// the job's roots, not the worker's own settings, decide what it may read and write. Real directories and
// symlinks.
import { symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createNodePorts } from '../../../src/node-io/engine-ports.js';
import { jobIo } from '../../../src/render/distributed/job-confinement.js';
import { layout } from './fixture.js';

const ok = (r: ReturnType<typeof jobIo>) => {
  if (!r.ok) throw new Error(r.error.message);
  return r.io;
};

const codeOf = async (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (err: { code?: string }) => err.code,
  );

describe('a distributed job confined to its roots on the worker', () => {
  it('without roots: the worker ports as they are, output folders by path', () => {
    const ports = createNodePorts();
    const io = ok(jobIo(null, ports));
    expect(io.ports).toBe(ports);
    expect(io.openWriteDir).toBeUndefined();
  });

  it('writes only below the write root, reads only below the roots, and a symlink out is refused', async () => {
    const l = await layout();
    const io = ok(jobIo({ read: [l.ro], write: [l.root] }, createNodePorts()));
    const inside = await io.openWriteDir!(join(l.root, 'out/frames'));
    expect(inside.real).toBe(join(l.root, 'out/frames'));
    await inside.close();
    expect(await codeOf(io.openWriteDir!(join(l.outside, 'frames')))).toBe('path_outside_roots');
    symlinkSync(l.outside, join(l.root, 'link'));
    expect(await codeOf(io.openWriteDir!(join(l.root, 'link')))).toBe('path_outside_roots');
    expect(await codeOf(io.ports.readFile(join(l.root, 'in.png')))).toBe('ok');
    expect(await codeOf(io.ports.readFile(join(l.outside, 'secret.png')))).toBe('path_outside_roots');
    expect(await codeOf(io.ports.readFile(join(l.root, 'link/secret.png')))).toBe('path_outside_roots');
  });

  it('a root missing on the worker fails the job not_configured instead of rendering unconfined', async () => {
    const l = await layout();
    const r = jobIo({ read: [], write: [join(l.dir, 'not-mounted')] }, createNodePorts());
    expect(r.ok ? 'ok' : r.error.code).toBe('not_configured');
  });
});
