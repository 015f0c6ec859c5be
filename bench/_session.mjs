// The session a benchmark drives: the built dist (EFFECTCRAFT_DIST=.dist-x for another build directory), at
// most BENCH_WORKERS render workers when set, and `ok(id, params, options)`, which runs one engine command and
// returns its result or throws its error.
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = fileURLToPath(new URL('..', import.meta.url));
export const dist = join(root, process.env.EFFECTCRAFT_DIST ?? 'dist');

export async function benchSession() {
  const { createSession } = await import(pathToFileURL(join(dist, 'session.js')).href);
  const session = createSession(
    process.env.BENCH_WORKERS ? { renderQueue: { maxWorkers: Number(process.env.BENCH_WORKERS) } } : {},
  );
  const ok = async (id, params, options) => {
    const r = await session.engine.execute(id, params, options);
    if (!r.ok) throw new Error(`${id}: ${r.error.message}`);
    return r.result;
  };
  return { session, ok };
}
