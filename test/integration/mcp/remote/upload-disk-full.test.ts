/**
 * A chunked upload onto a full disk (a real 20 MiB tmpfs as the write root; needs root, skipped with a message
 * otherwise). Chunk calls answer before their write has landed, so the failure may come with a later chunk or
 * with finish: either way it names the full disk and the remedy, the upload is discarded with its files, and
 * the store works again once there is room.
 */
import { createHash, randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UPLOADS_FOLDER, UploadStore } from '../../../../src/mcp/remote/upload-store.js';
import { canMount, mountTmpfs, type Tmpfs } from '../../../helpers/tmpfs.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const CHUNK = 8 * 1024 * 1024;
const mounts: Tmpfs[] = [];
afterAll(async () => {
  for (const m of mounts.splice(0)) await m.unmount();
});

if (!canMount) process.stderr.write('upload disk-full: skipped, mounting a tmpfs is not permitted here\n');

describe('UploadStore on a full disk', () => {
  (canMount ? it : it.skip)(
    'reports the full disk at a later chunk or at finish, keeps nothing, and works again',
    async () => {
      const tmpfs = await mountTmpfs('20m');
      expect(tmpfs).not.toBeNull();
      mounts.push(tmpfs!);
      const uploads = new UploadStore({ writeRoot: tmpfs!.dir });
      const bytes = randomBytes(5 * CHUNK); // 40 MiB onto 20 MiB
      const begun = await uploads.begin('big.bin', sha(bytes), bytes.length);
      expect(begun.ok).toBe(true);
      if (!begun.ok) return;
      const id = begun.value.upload_id;
      let failure: { code: string; message: string; remediation: string } | undefined;
      for (let seq = 0; seq < 5 && !failure; seq++) {
        const r = await uploads.chunk(id, seq, bytes.subarray(seq * CHUNK, (seq + 1) * CHUNK));
        if (!r.ok) failure = r.error;
      }
      if (!failure) {
        const r = await uploads.finish(id);
        expect(r.ok).toBe(false);
        if (!r.ok) failure = r.error;
      }
      expect(failure).toMatchObject({ code: 'io_error' });
      expect(failure!.message).toMatch(/disk is full/);
      expect(failure!.message).toContain(`Upload ${id} was discarded`);
      expect(failure!.remediation).toContain('put_sample_begin');

      // Discarded: finishing it is refused, and no chunk or temporary is left.
      const again = await uploads.finish(id);
      expect(again.ok).toBe(false);
      const left = await readdir(join(tmpfs!.dir, UPLOADS_FOLDER), { recursive: true, withFileTypes: true });
      expect(left.filter((e) => !e.isDirectory()).map((e) => e.name)).toEqual([]);

      // Room again: a smaller upload in chunks goes through.
      const small = randomBytes(CHUNK + 1000);
      const b = await uploads.begin('small.bin', sha(small), small.length);
      expect(b.ok).toBe(true);
      if (!b.ok) return;
      for (let seq = 0; seq < 2; seq++)
        expect(
          (await uploads.chunk(b.value.upload_id, seq, small.subarray(seq * CHUNK, (seq + 1) * CHUNK))).ok,
        ).toBe(true);
      const done = await uploads.finish(b.value.upload_id);
      expect(done.ok).toBe(true);
      await uploads.close();
    },
    60_000,
  );
});
