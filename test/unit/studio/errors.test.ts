// The studio's data routes answer an engine error with its JSON body and an HTTP status a browser reads
// rightly: a refusal is a 4xx (a confined session's file outside its roots is forbidden, not a server fault),
// only a failure of the server is a 500. Over a real HTTP server.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EngineError } from '../../../src/engine/index.js';
import { sendError } from '../../../src/studio/server/errors.js';

describe('the studio data routes, answering an error', () => {
  let server: Server;
  let base = '';
  beforeAll(async () => {
    server = createServer((req, res) => {
      const code = new URL(req.url!, 'http://x').searchParams.get('code');
      sendError(
        res,
        code ? new EngineError(code as never, `It failed: ${code}.`, 'Do this.') : new Error('boom'),
        'Drawing',
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each([
    ['path_outside_roots', 403],
    ['refused_while_confined', 403],
    ['no_such_file', 404],
    ['not_found', 404],
    ['bad_argument', 400],
    ['unsupported_format', 422],
    ['missing_dependency', 503],
    ['render_failed', 500],
  ])('%s is HTTP %i with the engine error as its body', async (code, status) => {
    const res = await fetch(`${base}/?code=${code}`);
    expect(res.status).toBe(status);
    expect(await res.json()).toEqual({ code, message: `It failed: ${code}.`, remediation: 'Do this.' });
  });

  it('a failure that is not an engine error is a 500 render_failed naming what failed', async () => {
    const res = await fetch(base);
    expect(res.status).toBe(500);
    expect(await res.json()).toMatchObject({ code: 'render_failed', message: 'Drawing: Error: boom' });
  });
});
