/** The JSON error answer of the studio's data routes (frames, sound): the engine's error body, an HTTP status. */
import type { ServerResponse } from 'node:http';
import { isEngineError } from '../../engine/index.js';
import type { ErrorBody } from '../protocol.js';

/** The status of each refusal (anything else is the server's failure, 500). */
const STATUS: Partial<Record<ErrorBody['code'], number>> = {
  bad_argument: 400,
  // The session may not read a file the composition uses (--automation-read-root): forbidden, not broken.
  path_outside_roots: 403,
  refused_while_confined: 403,
  not_found: 404,
  no_such_file: 404,
  // A file that is not (or no longer) media the composition can use.
  unsupported_format: 422,
  cancelled: 499,
  missing_dependency: 503,
};

/** Writes `err` as a JSON error body (nothing when the answer has begun or the client has gone). */
export function sendError(res: ServerResponse, err: unknown, what: string): void {
  if (res.headersSent || res.destroyed) return;
  const info: ErrorBody = isEngineError(err)
    ? err.toInfo()
    : { code: 'render_failed', message: `${what}: ${String(err)}`, remediation: 'See the app log.' };
  res.writeHead(STATUS[info.code] ?? 500, {
    'content-type': 'application/json',
    'cache-control': 'no-store',
  });
  res.end(JSON.stringify(info));
}
