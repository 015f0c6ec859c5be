import { mkdir } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createConfinement } from '../../../src/confinement/index.js';
import {
  defineCommand,
  emptyProject,
  READ_ONLY,
  type AnyCommand,
  type SessionView,
} from '../../../src/engine/index.js';
import { tempDir } from '../../helpers/tmp.js';

const view: SessionView = {
  doc: emptyProject(),
  projectPath: null,
  canUndo: false,
  canRedo: false,
  unsaved: false,
};

function command(extra: Partial<AnyCommand>): AnyCommand {
  return defineCommand({
    id: 'test.cmd',
    title: 'Test',
    category: 'Test',
    description: 'test',
    params: z.strictObject({ data: z.unknown().optional() }),
    pathParams: {},
    annotations: READ_ONLY,
    mutates: false,
    run: () => null,
    ...extra,
  }) as AnyCommand;
}

async function roots() {
  const dir = realpathSync.native(await tempDir());
  await mkdir(join(dir, 'w'));
  await mkdir(join(dir, 'r'));
  return { dir, w: join(dir, 'w'), r: join(dir, 'r') };
}

describe('guard', () => {
  it('checks files a command writes and reads that are not params', async () => {
    const d = await roots();
    const c = createConfinement({ readRoots: [d.r], writeRoots: [d.w] });
    const writes = (p: string) => command({ writesFiles: () => [p] });
    const reads = (p: string) => command({ readsFiles: () => [p] });
    expect(c.guard(writes(join(d.w, 'a.png')), {}, view)).toBeNull();
    expect(c.guard(writes(join(d.r, 'a.png')), {}, view)?.code).toBe('path_outside_roots');
    expect(c.guard(reads(join(d.r, 'a.png')), {}, view)).toBeNull();
    expect(c.guard(reads(join(d.dir, 'a.png')), {}, view)?.code).toBe('path_outside_roots');
    expect(c.guard(writes(join(d.r, 'a.png')), {}, view)?.message).toContain('test.cmd writes');
  });

  it('refuses a command whose file declarations throw, and unconfinable commands', async () => {
    const d = await roots();
    const c = createConfinement({ readRoots: [d.r], writeRoots: [d.w] });
    const broken = command({
      writesFiles: () => {
        throw new Error('boom');
      },
    });
    expect(c.guard(broken, {}, view)?.code).toBe('refused_while_confined');
    expect(c.guard(command({ unconfinable: true }), {}, view)?.code).toBe('refused_while_confined');
  });

  it('allows everything when not confined', () => {
    const c = createConfinement({});
    expect(c.guard(command({ unconfinable: true, writesFiles: () => ['/etc/passwd'] }), {}, view)).toBeNull();
  });

  it('deep-scans params: nested paths outside and file URLs are refused, inside allowed', async () => {
    const d = await roots();
    const c = createConfinement({ readRoots: [d.r], writeRoots: [d.w] });
    const cmd = command({});
    expect(c.guard(cmd, { data: { a: [[join(d.r, 'x')]] } }, view)).toBeNull();
    expect(c.guard(cmd, { data: { a: [[join(d.dir, 'x')]] } }, view)?.code).toBe('path_outside_roots');
    expect(c.guard(cmd, { data: [`file://${join(d.dir, 'x')}`] }, view)?.code).toBe('path_outside_roots');
    expect(c.guard(cmd, { data: ['file://host/x'] }, view)?.code).toBe('path_outside_roots');
  });

  it('resolves a path repeated many times once, and refuses params holding too many different paths', async () => {
    const { w, r } = await roots();
    const { createGuard, MAX_SCANNED_PATHS } = await import('../../../src/confinement/guard.js');
    const { createPolicy } = await import('../../../src/confinement/policy.js');
    const policy = createPolicy({ readRoots: [r], writeRoots: [w] });
    let checks = 0;
    const guard = createGuard({ ...policy, check: (...args) => (checks++, policy.check(...args)) });
    const copies = Array.from({ length: 100_000 }, () => join(r, 'a.png'));
    expect(guard(command({}), { data: { deep: [copies] } }, view)).toBeNull();
    expect(checks).toBe(1);
    const many = Array.from({ length: MAX_SCANNED_PATHS + 1 }, (_, i) => join(r, `f${i}.png`));
    checks = 0;
    expect(guard(command({}), { data: many }, view)).toMatchObject({ code: 'bad_argument' });
    expect(checks).toBe(0);
    // At the limit, every one is still checked (and one outside is still caught).
    many[MAX_SCANNED_PATHS - 1] = '/etc/passwd';
    expect(guard(command({}), { data: many.slice(0, MAX_SCANNED_PATHS) }, view)).toMatchObject({
      code: 'path_outside_roots',
    });
  });
});
