/**
 * `mcp --http --token-file PATH` (docs/remote.md, "Token"): a token file created at start-up is said to be new
 * in the start-up line only; a 401 long after names the file as it is.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { cliPath } from '../helpers/cli.js';
import { tempDir } from '../helpers/tmp.js';

const children: ReturnType<typeof spawn>[] = [];
afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
});

/** Starts the node with `--token-file file`; resolves with its URL and start-up line once it listens. */
function start(file: string): Promise<{ url: string; line: string }> {
  const child = spawn(process.execPath, [cliPath, 'mcp', '--http', '0', '--token-file', file], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  children.push(child);
  let err = '';
  return new Promise((resolve, reject) => {
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      err += d;
      const m = /listening on (https?\S+).*/.exec(err);
      if (m) resolve({ url: m[1]!, line: m[0] });
    });
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${err}`)));
  });
}

/** The message of the 401 a request without a token gets from this machine. */
async function unauthorized(url: string): Promise<string> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
  });
  expect(res.status).toBe(401);
  return ((await res.json()) as { error: { message: string } }).error.message;
}

describe('mcp --http --token-file', () => {
  it('says a token file is new at the start that created it only, never in a 401', async () => {
    const file = join(await tempDir('ec-token-'), 'mcp.token');
    const first = await start(file);
    expect(first.line).toContain(`the token file ${file}, created now`);
    const message = await unauthorized(first.url);
    expect(message).toContain(`the token file ${file}.`);
    expect(message).not.toMatch(/new|created/);

    const second = await start(file);
    expect(second.line).toContain(`the token file ${file})`);
    expect(second.line).not.toMatch(/new|created/);
  });
});
