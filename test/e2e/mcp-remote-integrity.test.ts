/**
 * A render node's uploaded samples stay what was uploaded (docs/remote.md, "Stored once" and "Where uploads
 * live"): a sample removed or changed on the node is written again by the next upload of its bytes.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/tmp.js';
import { call, connect, sha256, startNode } from './remote-helpers.js';

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
});
