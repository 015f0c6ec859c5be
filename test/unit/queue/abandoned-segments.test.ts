/**
 * The segments of a distributed render whose coordinator died are removed by the first worker that drops one of
 * its jobs: every segment of that render beside the output, and nothing else (another render's segments of the
 * same output, another output's, the output itself, a file of the user's). Real files in a real folder.
 */
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { removeAbandonedSegments } from '../../../src/render/distributed/leftovers.js';
import { tempDir } from '../../helpers/tmp.js';

it("removes every segment of the abandoned render's output, and only those", async () => {
  const dir = await tempDir();
  const names = [
    '.o.mp4.112e455d.0-14999.seg.mp4',
    '.o.mp4.112e455d.15000-29999.seg.mp4',
    '.o.mp4.9abc0123.0-14999.seg.mp4', // another render of the same output (a retry, alive)
    '.p.mp4.112e455d.0-14999.seg.mp4', // another output of the same render
    'o.mp4',
    '.o.mp4.112e455d.notes.seg.mp4',
  ];
  for (const n of names) await writeFile(join(dir, n), 'x');
  expect(await removeAbandonedSegments(join(dir, names[0]!))).toBe(2);
  expect((await readdir(dir)).sort()).toEqual(names.slice(2).sort());
  // A path that is not a segment removes nothing.
  expect(await removeAbandonedSegments(join(dir, 'o.mp4'))).toBe(0);
});
