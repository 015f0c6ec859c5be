/**
 * Many hands on one document: direct engine calls, two bridge connections (real WebSockets) and two MCP HTTP
 * clients (the official SDK client over real sockets) edit one engine at once, in seeded random interleavings of
 * plain edits, groups that commit, groups that roll back, undo and redo. Every edit makes a composition with a
 * unique name (its marker), so the final document says which edits survived. The invariants:
 * - an acknowledged edit is never lost except to an undo (absent steps = successful undos - successful redos);
 * - nothing that was not acknowledged, or that was rolled back, is in the document;
 * - a group is all there or all gone (an undo never splits it);
 * - undo-all gives back the first document, and redo-all the last.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import {
  createHeadlessBackend,
  createServerFactory,
  serveMcpHttp,
  type HttpServing,
} from '../../../src/mcp/index.js';
import { emptyProject, type Engine } from '../../../src/engine/index.js';
import { connect, startApp, tempDir } from '../bridge/harness.js';
import { rng } from '../../helpers/fuzz.js';

const HTTP_TOKEN = 'concurrency-test-token-0123456789';

type Outcome = { ok: true } | { ok: false; code: string };

/** One surface's way to edit: a plain step, a group of steps (rolled back when the last step fails), undo, redo. */
interface Surface {
  name: string;
  step(id: string, params: Record<string, unknown>): Promise<Outcome>;
  group(
    steps: Array<{ id: string; params: Record<string, unknown> }>,
    pause: () => Promise<void>,
  ): Promise<Outcome>;
}

const comp = (name: string) => ({ id: 'comp.new', params: { name, width: 8, height: 8 } });
const FAILING = { id: 'layer.delete', params: { layer: 'no-such-layer' } };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function directSurface(engine: Engine): Surface {
  return {
    name: 'direct',
    async step(id, params) {
      const r = await engine.execute(id, params);
      return r.ok ? { ok: true } : { ok: false, code: r.error.code };
    },
    async group(steps, pause) {
      const r = await engine.group('Direct group', async (group) => {
        for (const s of steps) {
          await pause();
          if (!(await engine.execute(s.id, s.params, { group })).ok) return false;
        }
        return true;
      });
      if (!r.ok) return { ok: false, code: r.error.code };
      return r.committed ? { ok: true } : { ok: false, code: 'rolled_back' };
    },
  };
}

function bridgeSurface(name: string, app: Parameters<typeof connect>[0]): Surface {
  const { backend } = connect(app);
  return {
    name,
    async step(id, params) {
      const r = await backend.execute(id, params);
      return r.ok ? { ok: true } : { ok: false, code: r.error.code };
    },
    async group(steps, pause) {
      const r = await backend.group('Bridge group', async (run) => {
        for (const s of steps) {
          await pause();
          if (!(await run.execute(s.id, s.params)).ok) return false;
        }
        return true;
      });
      if (!r.ok) return { ok: false, code: r.error.code };
      return r.committed ? { ok: true } : { ok: false, code: 'rolled_back' };
    },
  };
}

async function httpSurface(name: string, url: string): Promise<Surface> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(url), {
      requestInit: { headers: { authorization: `Bearer ${HTTP_TOKEN}` } },
    }),
  );
  cleanups.push(() => client.close());
  const codeOf = (r: Awaited<ReturnType<typeof client.callTool>>): Outcome => {
    if (!r.isError) return { ok: true };
    const s = r.structuredContent as { code?: string; rolled_back?: boolean } | undefined;
    return { ok: false, code: s?.rolled_back ? 'rolled_back' : (s?.code ?? 'unknown') };
  };
  return {
    name,
    step: async (id, params) =>
      codeOf(await client.callTool({ name: 'command_run', arguments: { id, params } })),
    // The `batch` tool is one group: one undo step, rolled back when a step fails.
    group: async (steps) => codeOf(await client.callTool({ name: 'batch', arguments: { steps } })),
  };
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

interface Step {
  markers: string[];
}

async function runSeed(seed: number, opsPerCaller: number) {
  const app = await startApp(await tempDir());
  const engine = app.engine;
  const http: HttpServing = await serveMcpHttp(
    createServerFactory(createHeadlessBackend(engine), { version: 'test' }),
    { port: 0, token: HTTP_TOKEN },
  );
  cleanups.push(() => http.close());
  const surfaces = [
    directSurface(engine),
    bridgeSurface('bridge-1', app),
    bridgeSurface('bridge-2', app),
    await httpSurface('http-1', http.url),
    await httpSurface('http-2', http.url),
  ];

  const committed: Step[] = [];
  const rolledBack: string[] = [];
  const unexpected: string[] = [];
  let undos = 0;
  let redos = 0;

  const caller = async (surface: Surface, index: number) => {
    const random = rng(seed * 31 + index);
    const pause = async () => void (await sleep(Math.floor(random() * 4)));
    for (let i = 0; i < opsPerCaller; i++) {
      const marker = (k: number) => `${surface.name}:${i}:${k}`;
      const pick = random();
      await pause();
      if (pick < 0.35) {
        const r = await surface.step('comp.new', comp(marker(0)).params);
        if (r.ok) committed.push({ markers: [marker(0)] });
        else unexpected.push(`${surface.name} plain edit: ${r.code}`);
      } else if (pick < 0.75) {
        const size = 1 + Math.floor(random() * 3);
        const markers = Array.from({ length: size }, (_, k) => marker(k));
        const fail = random() < 0.4;
        const r = await surface.group([...markers.map(comp), ...(fail ? [FAILING] : [])], pause);
        if (r.ok && !fail) committed.push({ markers });
        else if (!r.ok && fail && r.code !== 'busy') rolledBack.push(...markers);
        else unexpected.push(`${surface.name} group (fail=${fail}): ${r.ok ? 'ok' : r.code}`);
      } else {
        const id = pick < 0.9 ? 'edit.undo' : 'edit.redo';
        const r = await surface.step(id, {});
        // Nothing to undo/redo is an honest refusal; count only the steps that happened.
        if (r.ok && id === 'edit.undo') undos++;
        else if (r.ok) redos++;
        else if (r.code !== 'command_disabled') unexpected.push(`${surface.name} ${id}: ${r.code}`);
      }
    }
  };
  await Promise.all(surfaces.map((s, i) => caller(s, i)));

  expect(unexpected).toEqual([]);
  const present = new Set(engine.document.items.map((item) => item.name));
  const acknowledged = new Set(committed.flatMap((s) => s.markers));
  // Nothing rolled back and nothing unacknowledged made it in.
  expect([...present].filter((m) => !acknowledged.has(m))).toEqual([]);
  expect(rolledBack.filter((m) => present.has(m))).toEqual([]);
  // Each acknowledged step is all there or all gone; the gone ones are exactly what the undos took.
  const split = committed.filter((s) => new Set(s.markers.map((m) => present.has(m))).size > 1);
  expect(split).toEqual([]);
  const absent = committed.filter((s) => !present.has(s.markers[0]!)).length;
  expect(absent).toBe(undos - redos);

  // One history for everybody: undo-all gives back the first document, redo-all the last.
  const last = engine.document;
  let undone = 0;
  while ((await engine.execute('edit.undo', {})).ok) undone++;
  expect(engine.document).toEqual(emptyProject());
  for (let i = 0; i < undone; i++) expect((await engine.execute('edit.redo', {})).ok).toBe(true);
  expect(engine.document).toEqual(last);
  return { committed: committed.length, rolledBack: rolledBack.length, undos, redos };
}

describe('many hands on one document', () => {
  it.each([1, 2, 3])('keeps every acknowledged edit across surfaces (seed %i)', async (seed) => {
    const counts = await runSeed(seed, 14);
    // The run really mixed the kinds of work it claims to test.
    expect(counts.committed).toBeGreaterThan(10);
    expect(counts.rolledBack).toBeGreaterThan(0);
    expect(counts.undos).toBeGreaterThan(0);
  });
});
