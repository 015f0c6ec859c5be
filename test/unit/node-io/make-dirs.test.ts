import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeDirs } from '../../../src/node-io/make-dirs.js';
import { tempDir } from '../../helpers/tmp.js';

describe('makeDirs', () => {
  it('creates missing levels one by one and returns exactly the ones it made', async () => {
    const root = await tempDir();
    expect(await makeDirs(join(root, 'a', 'b', 'c'))).toEqual([
      join(root, 'a'),
      join(root, 'a', 'b'),
      join(root, 'a', 'b', 'c'),
    ]);
    expect((await stat(join(root, 'a', 'b', 'c'))).isDirectory()).toBe(true);
    expect(await makeDirs(join(root, 'a', 'b', 'd'))).toEqual([join(root, 'a', 'b', 'd')]);
    expect(await makeDirs(root)).toEqual([]);
  });

  it('a file in the way is ENOTDIR', async () => {
    const root = await tempDir();
    await writeFile(join(root, 'file'), 'x');
    await expect(makeDirs(join(root, 'file', 'sub'))).rejects.toMatchObject({ code: 'ENOTDIR' });
  });

  it.skipIf(process.platform !== 'linux')(
    'fails (never spins) where the kernel refuses creation, as under /proc',
    async () => {
      await expect(makeDirs('/proc/effectcraft-nope/x')).rejects.toMatchObject({ code: 'ENOENT' });
    },
  );
});
