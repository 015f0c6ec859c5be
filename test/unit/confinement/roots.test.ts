import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  ConfinementSetupError,
  createConfinement,
  tryCreateConfinement,
} from '../../../src/confinement/index.js';
import { tempDir } from '../../helpers/tmp.js';

describe('roots at start-up', () => {
  it('resolves roots with realpath and removes duplicates', async () => {
    const dir = realpathSync.native(await tempDir());
    await mkdir(join(dir, 'real'));
    await symlink(join(dir, 'real'), join(dir, 'alias'));
    const c = createConfinement({ readRoots: [join(dir, 'alias'), join(dir, 'real') + '/'], writeRoots: [] });
    expect(c.info).toEqual({ confined: true, readRoots: [join(dir, 'real')], writeRoots: [] });
  });

  it('reports a missing root as a start-up error naming the flag', async () => {
    const dir = await tempDir();
    const r = tryCreateConfinement({ readRoots: [], writeRoots: [join(dir, 'missing')] });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain('--automation-write-root');
    expect(() => createConfinement({ readRoots: [join(dir, 'missing')], writeRoots: [] })).toThrow(
      ConfinementSetupError,
    );
  });

  it('reports a root that is a file', async () => {
    const dir = await tempDir();
    await writeFile(join(dir, 'file'), 'x');
    const r = tryCreateConfinement({ readRoots: [join(dir, 'file')], writeRoots: [] });
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.message).toContain('--automation-read-root');
  });

  it('is not confined without roots, and then allows everything', () => {
    const c = createConfinement({ readRoots: [], writeRoots: [] });
    expect(c.info.confined).toBe(false);
    expect(c.checkPath('/etc/passwd', 'write', 'path')).toBeNull();
    expect(c.checkPath('relative', 'read', 'path')).toBeNull();
    expect(c.checkTool('run_script')).toBeNull();
  });
});
