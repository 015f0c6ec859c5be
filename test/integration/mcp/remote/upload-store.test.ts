/** The upload store on a real filesystem (temp dirs, real links): the put_sample convention's guarantees. */
import { createHash, randomBytes } from 'node:crypto';
import { lstat, readdir, readFile, stat, symlink } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UPLOADS_FOLDER, UploadStore } from '../../../../src/mcp/remote/upload-store.js';
import { tempDir } from '../../../helpers/tmp.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** Every file below `dir` (relative paths), temporaries included. */
async function filesBelow(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return entries.filter((e) => !e.isDirectory()).map((e) => join(e.parentPath, e.name));
}

async function store(options: Partial<ConstructorParameters<typeof UploadStore>[0]> = {}) {
  const root = await tempDir('ec-uploads-');
  return { root, uploads: new UploadStore({ writeRoot: root, ...options }) };
}

function expectError<T>(r: { ok: true; value: T } | { ok: false; error: { code: string } }, code: string) {
  expect(r.ok).toBe(false);
  if (!r.ok) expect(r.error.code).toBe(code);
}

describe('UploadStore', () => {
  it('keeps a whole sample under the write root, 0600 in 0700 folders, and returns its path', async () => {
    const { root, uploads } = await store();
    const bytes = randomBytes(1000);
    const r = await uploads.put('frame.png', bytes, sha(bytes));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.path.startsWith(join(root, UPLOADS_FOLDER))).toBe(true);
    expect(r.value.path.endsWith(join(sha(bytes), 'frame.png'))).toBe(true);
    expect(await readFile(r.value.path)).toEqual(bytes);
    expect((await stat(r.value.path)).mode & 0o777).toBe(0o600);
    for (let d = join(r.value.path, '..'); d !== root; d = join(d, '..'))
      expect((await stat(d)).mode & 0o777).toBe(0o700);
    await uploads.close();
  });

  it('refuses bytes that do not match the sha256 and keeps nothing', async () => {
    const { root, uploads } = await store();
    const bytes = randomBytes(100);
    expectError(await uploads.put('a.png', bytes, sha(randomBytes(100))), 'bad_argument');
    expect(await filesBelow(root)).toEqual([]);
  });

  it.each(['../x.png', '/etc/passwd', 'a/b.png', 'a\\b.png', '..', '.hidden', 'nul\u0000.png', ''])(
    'refuses filename %j: a name, never a path',
    async (name) => {
      const { root, uploads } = await store();
      const bytes = randomBytes(10);
      expectError(await uploads.put(name, bytes, sha(bytes)), 'bad_argument');
      expectError(await uploads.begin(name, sha(bytes), 10), 'bad_argument');
      expect(await filesBelow(root)).toEqual([]);
    },
  );

  it('refuses uploads with no write root, naming the flag', async () => {
    const uploads = new UploadStore({ writeRoot: undefined });
    const bytes = randomBytes(10);
    const r = await uploads.put('a.png', bytes, sha(bytes));
    expectError(r, 'not_configured');
    if (!r.ok) expect(r.error.remediation).toContain('--automation-write-root');
    expectError(await uploads.begin('a.png', sha(bytes), 10), 'not_configured');
  });

  it('joins chunks sent out of order and resent, and stores the file', async () => {
    const { uploads } = await store();
    const bytes = randomBytes(10_000);
    const parts = [0, 1, 2, 3].map((i) => bytes.subarray(i * 3000, (i + 1) * 3000));
    const begun = await uploads.begin('clip.mov', sha(bytes), bytes.length);
    if (!begun.ok) throw new Error(begun.error.message);
    const id = begun.value.upload_id;
    for (const seq of [2, 0, 3, 1, 2]) expect((await uploads.chunk(id, seq, parts[seq]!)).ok).toBe(true);
    const done = await uploads.finish(id);
    if (!done.ok) throw new Error(done.error.message);
    expect(await readFile(done.value.path)).toEqual(bytes);
    await uploads.close();
  });

  it.each([
    ['in order, one resent', [3000, 3000, 3000, 1000], [0, 1, 2, 1, 3]],
    ['in order, sizes that differ', [3000, 2000, 4000, 1000], [0, 1, 2, 3]],
    ['seq 0 last, then resent shorter', [3000, 3000, 4000], [1, 2, 0]],
    // The running hash: later chunks wait in the file until the gap before them is filled.
    ['seq 0 first, then 2 and 3 before 1', [3000, 3000, 3000, 1000], [0, 2, 3, 1]],
    ['in order, the last resent', [3000, 3000, 1000], [0, 1, 2, 2]],
  ])('joins chunks sent %s', async (_label, sizes, order) => {
    const { root, uploads } = await store();
    const bytes = randomBytes(sizes.reduce((a, b) => a + b, 0));
    const starts = sizes.map((_, i) => sizes.slice(0, i).reduce((a, b) => a + b, 0));
    const part = (seq: number) => bytes.subarray(starts[seq], starts[seq]! + sizes[seq]!);
    const begun = await uploads.begin('clip.mov', sha(bytes), bytes.length);
    if (!begun.ok) throw new Error(begun.error.message);
    for (const seq of order)
      expect((await uploads.chunk(begun.value.upload_id, seq, part(seq))).ok).toBe(true);
    const done = await uploads.finish(begun.value.upload_id);
    if (!done.ok) throw new Error(done.error.message);
    expect((await readFile(done.value.path)).equals(bytes)).toBe(true);
    // Only the stored sample is left: no chunk files, no assembled file.
    expect(await filesBelow(root)).toEqual([done.value.path]);
    await uploads.close();
  });

  it('joins chunks that arrive all at once after seq 0 (a client with several in flight)', async () => {
    const { uploads } = await store();
    const bytes = randomBytes(64 * 3000);
    const begun = await uploads.begin('clip.mov', sha(bytes), bytes.length);
    if (!begun.ok) throw new Error(begun.error.message);
    const id = begun.value.upload_id;
    const part = (seq: number) => bytes.subarray(seq * 3000, (seq + 1) * 3000);
    expect((await uploads.chunk(id, 0, part(0))).ok).toBe(true);
    const seqs = Array.from({ length: 63 }, (_, i) => 63 - i);
    const sent = await Promise.all(seqs.map((seq) => uploads.chunk(id, seq, part(seq))));
    expect(sent.every((r) => r.ok)).toBe(true);
    const done = await uploads.finish(id);
    if (!done.ok) throw new Error(done.error.message);
    expect((await readFile(done.value.path)).equals(bytes)).toBe(true);
    await uploads.close();
  });

  it('refuses a tampered chunk sent in order (the running hash) and keeps nothing', async () => {
    const { root, uploads } = await store();
    const bytes = randomBytes(9000);
    const begun = await uploads.begin('clip.mov', sha(bytes), bytes.length);
    if (!begun.ok) throw new Error(begun.error.message);
    const id = begun.value.upload_id;
    const tampered = Buffer.from(bytes.subarray(3000, 6000));
    tampered[0] = tampered[0]! ^ 1;
    for (const [seq, data] of [bytes.subarray(0, 3000), tampered, bytes.subarray(6000)].entries())
      expect((await uploads.chunk(id, seq, data)).ok).toBe(true);
    expectError(await uploads.finish(id), 'bad_argument');
    expect(await filesBelow(root)).toEqual([]);
    await uploads.close();
  });

  it('names a missing chunk at finish and keeps the others, so the client can send it and finish', async () => {
    const { uploads } = await store();
    const bytes = randomBytes(9000);
    const begun = await uploads.begin('clip.mov', sha(bytes), bytes.length);
    if (!begun.ok) throw new Error(begun.error.message);
    const id = begun.value.upload_id;
    await uploads.chunk(id, 0, bytes.subarray(0, 3000));
    await uploads.chunk(id, 2, bytes.subarray(6000));
    const gap = await uploads.finish(id);
    expectError(gap, 'bad_argument');
    if (!gap.ok) expect(gap.error.message).toContain('chunk 1 is missing');
    await uploads.chunk(id, 1, bytes.subarray(3000, 6000));
    expect((await uploads.finish(id)).ok).toBe(true);
    await uploads.close();
  });

  it('refuses a tampered chunk at finish and keeps nothing of it', async () => {
    const { root, uploads } = await store();
    const bytes = randomBytes(6000);
    const begun = await uploads.begin('clip.mov', sha(bytes), bytes.length);
    if (!begun.ok) throw new Error(begun.error.message);
    const id = begun.value.upload_id;
    const tampered = Buffer.from(bytes.subarray(3000));
    tampered[10] = tampered[10]! ^ 0xff;
    await uploads.chunk(id, 0, bytes.subarray(0, 3000));
    await uploads.chunk(id, 1, tampered);
    expectError(await uploads.finish(id), 'bad_argument');
    expect(await filesBelow(root)).toEqual([]);
    expectError(await uploads.chunk(id, 1, bytes.subarray(3000)), 'not_found');
    await uploads.close();
  });

  it('stores concurrent uploads of the same sha256 once', async () => {
    const { root, uploads } = await store();
    const bytes = randomBytes(50_000);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => uploads.put('same.png', bytes, sha(bytes))),
    );
    const paths = new Set(results.map((r) => (r.ok ? r.value.path : r.error.code)));
    expect(paths.size).toBe(1);
    expect(await filesBelow(root)).toHaveLength(1);
    // Another name for the same bytes is a second name of the same file, not a copy.
    const other = await uploads.put('other.png', bytes, sha(bytes));
    if (!other.ok) throw new Error(other.error.message);
    const [a, b] = await Promise.all([stat([...paths][0]!), stat(other.value.path)]);
    expect(b.ino).toBe(a.ino);
    expect(uploads.bytesHeld).toBe(bytes.length);
    await uploads.close();
  });

  it('refuses an upload over the per-upload limit, and one over the total', async () => {
    const { uploads } = await store({ limits: { maxUploadBytes: 1000, maxTotalBytes: 1500 } });
    expectError(await uploads.begin('big.mov', sha(Buffer.alloc(1)), 1001), 'bad_argument');
    const a = randomBytes(900);
    expect((await uploads.put('a.png', a, sha(a))).ok).toBe(true);
    const b = randomBytes(900);
    expectError(await uploads.put('b.png', b, sha(b)), 'busy');
    expectError(await uploads.begin('b.png', sha(b), 900), 'busy');
    await uploads.close();
  });

  it('removes samples unused for the idle time, keeps those the project names, drops abandoned uploads', async () => {
    let now = 0;
    const kept = new Set<string>();
    const { root, uploads } = await store({
      now: () => now,
      limits: { idleMs: 1000 },
      inUse: (p) => kept.has(p),
    });
    const a = randomBytes(10);
    const b = randomBytes(10);
    const ra = await uploads.put('a.png', a, sha(a));
    const rb = await uploads.put('b.png', b, sha(b));
    if (!ra.ok || !rb.ok) throw new Error('upload failed');
    kept.add(rb.value.path);
    const begun = await uploads.begin('c.mov', sha(a), 100);
    if (!begun.ok) throw new Error(begun.error.message);
    await uploads.chunk(begun.value.upload_id, 0, randomBytes(10));
    now = 999;
    await uploads.sweep();
    expect(await filesBelow(root)).toHaveLength(3);
    now = 1001;
    await uploads.sweep();
    expect(await filesBelow(root)).toEqual([rb.value.path]);
    expectError(await uploads.finish(begun.value.upload_id), 'not_found');
    await uploads.close();
  });

  it('drops an upload that received no chunk after unstartedMs, one with chunks only after idleMs', async () => {
    let now = 0;
    const { uploads } = await store({ now: () => now, limits: { idleMs: 10_000, unstartedMs: 1000 } });
    const bytes = randomBytes(100);
    const idle = await uploads.begin('idle.mov', sha(bytes), 100);
    const sending = await uploads.begin('sending.mov', sha(bytes), 100);
    if (!idle.ok || !sending.ok) throw new Error('begin failed');
    expect((await uploads.chunk(sending.value.upload_id, 0, bytes.subarray(0, 10))).ok).toBe(true);
    expect(uploads.bytesHeld).toBe(200);
    now = 1001;
    await uploads.sweep();
    expect(uploads.bytesHeld).toBe(100);
    expectError(await uploads.chunk(idle.value.upload_id, 0, bytes), 'not_found');
    expect((await uploads.chunk(sending.value.upload_id, 1, bytes.subarray(10))).ok).toBe(true);
    expect((await uploads.finish(sending.value.upload_id)).ok).toBe(true);
    await uploads.close();
  });

  it('links samples given a folder side by side, replaces a name there, and keeps a folder the project reads', async () => {
    let now = 0;
    const named = new Set<string>();
    const { root, uploads } = await store({
      limits: { idleMs: 1000 },
      now: () => now,
      // As the server's check does: the project's text names the path, so it also contains its folder.
      inUse: (p) => [...named].some((n) => n === p || n.startsWith(p)),
    });
    const a = randomBytes(10);
    const b = randomBytes(10);
    const ra = await uploads.put('f_0000.png', a, sha(a), 'shot1');
    const begun = await uploads.begin('f_0001.png', sha(b), b.length, 'shot1');
    if (!ra.ok || !begun.ok) throw new Error('upload failed');
    await uploads.chunk(begun.value.upload_id, 0, b);
    const rb = await uploads.finish(begun.value.upload_id);
    if (!rb.ok) throw new Error(rb.error.message);
    expect(join(ra.value.path, '..')).toBe(join(rb.value.path, '..'));
    expect(ra.value.path.endsWith(join('shot1', 'f_0000.png'))).toBe(true);
    expect(await readFile(rb.value.path)).toEqual(b);
    expect((await stat(join(rb.value.path, '..'))).mode & 0o777).toBe(0o700);
    // The same name again with other bytes replaces the file in the folder.
    const c = randomBytes(10);
    const rc = await uploads.put('f_0001.png', c, sha(c), 'shot1');
    if (!rc.ok) throw new Error('upload failed');
    expect(rc.value.path).toBe(rb.value.path);
    expect(await readFile(rc.value.path)).toEqual(c);
    // The project names the first frame only; the whole folder stays past the idle time.
    named.add(ra.value.path);
    now = 5000;
    await uploads.sweep();
    expect(await readFile(rc.value.path)).toEqual(c);
    named.clear();
    await uploads.sweep();
    expect(await filesBelow(root)).toEqual([]);
    expectError(await uploads.put('x.png', a, sha(a), '../up'), 'bad_argument');
    expectError(await uploads.begin('x.png', sha(a), 10, 'a/b'), 'bad_argument');
    await uploads.close();
  });

  it('close removes every upload, finished or not', async () => {
    const { root, uploads } = await store();
    const a = randomBytes(10);
    await uploads.put('a.png', a, sha(a));
    const begun = await uploads.begin('c.mov', sha(a), 100);
    if (begun.ok) await uploads.chunk(begun.value.upload_id, 0, randomBytes(10));
    await uploads.close();
    await uploads.close();
    expect(await readdir(root)).toEqual([]);
  });

  it('refuses to work through an uploads folder that is a planted symbolic link', async () => {
    const { root, uploads } = await store();
    const elsewhere = await tempDir('ec-elsewhere-');
    await symlink(elsewhere, join(root, UPLOADS_FOLDER));
    const a = randomBytes(10);
    await expect(uploads.put('a.png', a, sha(a))).rejects.toThrow(/not a folder/);
    expect(await readdir(elsewhere)).toEqual([]);
    expect((await lstat(join(root, UPLOADS_FOLDER))).isSymbolicLink()).toBe(true);
  });
});
