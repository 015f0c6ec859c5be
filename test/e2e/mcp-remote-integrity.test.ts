/**
 * A render node's uploaded samples stay what was uploaded (docs/remote.md, "Stored once" and "Where uploads
 * live"): a sample removed or changed on the node is written again by the next upload of its bytes, and no
 * command may write into the uploads folder.
 */
import { existsSync, realpathSync } from 'node:fs';
import { link, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newEngine, run as runLocal } from '../helpers/engine.js';
import { tempDir } from '../helpers/tmp.js';
import { call, connect, download, errorCode, sha256, startNode } from './remote-helpers.js';

const put = (client: Awaited<ReturnType<typeof connect>>, filename: string, bytes: Buffer) =>
  call<{ path: string }>(client, 'put_sample', {
    filename,
    content_b64: bytes.toString('base64'),
    sha256: sha256(bytes),
  });

describe('mcp --http: uploaded samples stay what was uploaded', () => {
  it('writes a sample again when its file was removed or changed on the node', async () => {
    const root = await tempDir('ec-node-');
    const node = await startNode(['--automation-write-root', root]);
    const client = await connect(node.url);
    const bytes = Buffer.from('RIFF voice-over bytes '.repeat(40));

    const { path } = await put(client, 'vo.wav', bytes);
    await rm(path);
    // The same bytes and name: the same path, with the bytes there again.
    expect((await put(client, 'vo.wav', bytes)).path).toBe(path);
    expect((await readFile(path)).equals(bytes)).toBe(true);

    // The same bytes under a second name, after the first name went.
    await rm(path);
    const second = await put(client, 'vo2.wav', bytes);
    expect(dirname(second.path)).toBe(dirname(path));
    expect((await readFile(second.path)).equals(bytes)).toBe(true);

    // Changed in place (same file, other bytes): both names get the uploaded bytes back.
    await writeFile(second.path, 'other bytes');
    expect((await put(client, 'vo2.wav', bytes)).path).toBe(second.path);
    expect((await readFile(second.path)).equals(bytes)).toBe(true);
    expect((await put(client, 'vo.wav', bytes)).path).toBe(path);
    expect((await readFile(path)).equals(bytes)).toBe(true);
    await client.close();
  });

  it('refuses renders, saves and frames that would write into the uploads folder', async () => {
    const root = await tempDir('ec-node-');
    const node = await startNode(['--automation-write-root', root]);
    const client = await connect(node.url);
    const bytes = Buffer.from('sample that must not be replaced '.repeat(30));
    const { path } = await put(client, 'c3.mp4', bytes);
    const run = (id: string, params: Record<string, unknown>) =>
      errorCode(client, 'command_run', { id, params });

    await call(client, 'command_run', {
      id: 'comp.new',
      params: { name: 'Main', width: 64, height: 64, frameRate: 24, duration: 1 },
    });
    const added = await call<{ result?: { id?: string } }>(client, 'command_run', {
      id: 'renderQueue.add',
      params: { comp: 'Main', output: path },
    }).catch(() => null);
    // Refused when the item is added, or at the latest when it renders.
    if (added) expect(await run('renderQueue.render', {})).toBe('path_outside_roots');
    else expect(await run('renderQueue.add', { comp: 'Main', output: path })).toBe('path_outside_roots');
    expect(await run('project.save', { path })).toBe('path_outside_roots');
    expect(await run('frame.save', { comp: 'Main', path: join(dirname(path), 'f.png') })).toBe(
      'path_outside_roots',
    );
    expect(await run('project.save', { path: join(root, '.effectcraft-uploads', 'p.ecproj') })).toBe(
      'path_outside_roots',
    );
    expect((await readFile(path)).equals(bytes)).toBe(true);
    // Writing beside it, under the write root, still works.
    await call(client, 'command_run', { id: 'project.save', params: { path: join(root, 'p.ecproj') } });

    // A project uploaded with a relative output renders it into the uploads: refused, naming outputDir, which
    // opens it with its outputs elsewhere.
    const local = await tempDir('ec-node-project-');
    const engine = newEngine();
    await runLocal(engine, 'comp.new', { name: 'Up', width: 16, height: 16, frameRate: 10, duration: 0.2 });
    await runLocal(engine, 'renderQueue.add', { comp: 'Up', output: join(local, 'out', 'up_[#].png') });
    await runLocal(engine, 'project.save', { path: join(local, 'up.ecproj') });
    const uploaded = await put(client, 'up.ecproj', await readFile(join(local, 'up.ecproj')));
    await call(client, 'command_run', { id: 'project.open', params: { path: uploaded.path } });
    const refused = await client.callTool({ name: 'command_run', arguments: { id: 'renderQueue.render' } });
    const error = refused.structuredContent as { code: string; remediation: string };
    expect(error.code).toBe('path_outside_roots');
    expect(error.remediation).toContain(`outputDir: "${realpathSync(root)}"`);
    await call(client, 'command_run', {
      id: 'project.open',
      params: { path: uploaded.path, outputDir: root },
    });
    await call(client, 'command_run', { id: 'renderQueue.render' });
    expect(existsSync(join(root, 'out', 'up_0.png'))).toBe(true);
    await client.close();
  });

  it('get_output serves only the file the server wrote at a path, not one linked or put there since', async () => {
    const root = await tempDir('ec-node-');
    const secret = join(await tempDir('ec-elsewhere-'), 'secret.txt');
    await writeFile(secret, 'not for remote callers');
    const node = await startNode(['--automation-write-root', root]);
    const client = await connect(node.url);
    const saved = join(root, 'p.ecproj');
    await call(client, 'command_run', { id: 'project.save', params: { path: saved } });
    expect((await download(client, saved)).bytes.equals(await readFile(saved))).toBe(true);

    // A hard link keeps the path and passes the no-follow open: it must still be refused.
    await rm(saved);
    await link(secret, saved);
    expect(await errorCode(client, 'get_output', { path: saved })).toBe('bad_argument');
    // So is any other file put there.
    await rm(saved);
    await writeFile(saved, 'planted');
    expect(await errorCode(client, 'get_output', { path: saved })).toBe('bad_argument');
    // Saved again by the server (over the planted file, which a save refuses without overwrite: file_changed),
    // it is served again.
    expect(await errorCode(client, 'command_run', { id: 'project.save', params: { path: saved } })).toBe(
      'file_changed',
    );
    await call(client, 'command_run', { id: 'project.save', params: { path: saved, overwrite: true } });
    expect((await download(client, saved)).bytes.equals(await readFile(saved))).toBe(true);
    await client.close();
  });

  it('frees reservations of unfinished uploads: put_sample_abort, and a begin again of the same file', async () => {
    const root = await tempDir('ec-node-');
    const node = await startNode(['--automation-write-root', root, '--max-upload-total', '3M']);
    const client = await connect(node.url);
    const MiB = 1024 * 1024;
    const begin = (filename: string, bytes = Buffer.alloc(MiB, filename)) =>
      call<{ upload_id: string }>(client, 'put_sample_begin', {
        filename,
        sha256: sha256(bytes),
        size: bytes.length,
      });
    // A client whose begin's answer was lost begins again: the same file reserves once, not twice.
    const lost = await begin('a.wav');
    const retried = await begin('a.wav');
    const b = await begin('b.wav');
    await begin('c.wav');
    // The three hold the total: nothing more fits.
    const d = Buffer.alloc(MiB, 'd.wav');
    const refused = await client.callTool({
      name: 'put_sample_begin',
      arguments: { filename: 'd.wav', sha256: sha256(d), size: d.length },
    });
    expect(refused.isError).toBe(true);
    expect(refused.structuredContent).toMatchObject({ code: 'busy' });
    // The taken-over upload is gone; the retried one works.
    expect(
      await errorCode(client, 'put_sample_chunk', { upload_id: lost.upload_id, seq: 0, content_b64: 'AAAA' }),
    ).toBe('not_found');
    const a = Buffer.alloc(MiB, 'a.wav');
    await call(client, 'put_sample_chunk', {
      upload_id: retried.upload_id,
      seq: 0,
      content_b64: a.toString('base64'),
    });
    expect(await readFile((await call<{ path: string }>(client, 'put_sample_finish', retried)).path)).toEqual(
      a,
    );
    // Aborting releases the reservation (and only once).
    expect(await call(client, 'put_sample_abort', b)).toEqual({
      upload_id: b.upload_id,
      released_bytes: MiB,
    });
    expect(await errorCode(client, 'put_sample_abort', b)).toBe('not_found');
    await begin('d.wav', d);
    await client.close();
  });
});
