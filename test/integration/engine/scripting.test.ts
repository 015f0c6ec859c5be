/**
 * Scripts run in a worker with a wall-clock limit: a runaway script (sync or async) ends with code timeout,
 * the edits it made stay, and the engine keeps serving. The worker runs from its source (src/node-io/script-worker.ts).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Composition, ExecuteResult } from '../../../src/engine/index.js';
import { fails, newEngine, run } from '../../helpers/engine.js';
import { tempDir } from '../../helpers/tmp.js';

type ScriptOut = { result: unknown; logs: string[]; commands: number };

function comp(engine: ReturnType<typeof newEngine>): Composition {
  return engine.document.items.find((i) => i.type === 'composition') as Composition;
}

describe('script.run time limit', () => {
  it('stops a tight synchronous loop with code timeout; the engine keeps serving', async () => {
    const engine = newEngine();
    const r: ExecuteResult = await engine.execute('script.run', { code: 'while (true) {}', timeoutMs: 300 });
    expect(r.ok).toBe(false);
    if (!r.ok) {
      expect(r.error.code).toBe('timeout');
      expect(r.error.remediation).toMatch(/timeoutMs/);
    }
    await run(engine, 'comp.new', { width: 32, height: 32 });
    expect(comp(engine).width).toBe(32);
  });

  it('stops a script awaiting forever; edits made before the timeout stay, each its own undo step', async () => {
    const engine = newEngine();
    const code = `await app.run('comp.new', { width: 40, height: 30, name: 'Kept' });
      await app.run('layer.addSolid', { color: 'red' });
      await new Promise(() => {});`;
    const r: ExecuteResult = await engine.execute('script.run', { code, timeoutMs: 300 });
    expect(r.ok ? 'ok' : r.error.code).toBe('timeout');
    if (!r.ok) expect(r.error.message).toMatch(/2 command/);
    expect(comp(engine).name).toBe('Kept');
    expect(comp(engine).layers).toHaveLength(1);
    await run(engine, 'edit.undo');
    expect(comp(engine).layers).toHaveLength(0);
    expect(await run<ScriptOut>(engine, 'script.run', { code: 'return 1 + 1;' })).toEqual({
      result: 2,
      logs: [],
      commands: 0,
    });
  });

  it('file.runScript takes the same limit', async () => {
    const engine = newEngine();
    const path = join(await tempDir(), 'loop.js');
    await writeFile(path, `await app.run('comp.new', { width: 16, height: 16 }); for (;;) {}`);
    expect(await fails(engine, 'file.runScript', { path, timeoutMs: 300 })).toBe('timeout');
    expect(comp(engine).width).toBe(16);
  });

  it('ends with cancelled when the signal aborts', async () => {
    const engine = newEngine();
    const controller = new AbortController();
    const pending = engine.execute('script.run', { code: 'while (true) {}' }, { signal: controller.signal });
    setTimeout(() => controller.abort(), 100);
    const r = await pending;
    expect(r.ok ? 'ok' : r.error.code).toBe('cancelled');
  });

  it('refuses limits out of range', async () => {
    const engine = newEngine();
    expect(await fails(engine, 'script.run', { code: 'return 1;', timeoutMs: 0 })).toBe('bad_argument');
    expect(await fails(engine, 'script.run', { code: 'return 1;', timeoutMs: 600_001 })).toBe('bad_argument');
  });
});

describe('script.run API in the worker', () => {
  it("app.document reflects the script's own edits, and stays read-only", async () => {
    const engine = newEngine();
    const code = `const before = app.document.items.length;
      await app.run('comp.new', { width: 20, height: 10, name: 'A' });
      const after = app.document.items.map((i) => i.name);
      let frozen = false;
      try { app.document.items.push({}); } catch { frozen = true; }
      return { before, after, frozen };`;
    const r = await run<ScriptOut>(engine, 'script.run', { code });
    expect(r.result).toEqual({ before: 0, after: ['A'], frozen: true });
    expect(r.commands).toBe(1);
  });

  it('console.log maps to app.log; a failed app.run carries the engine code and can be caught', async () => {
    const engine = newEngine();
    const code = `console.log('hi', { n: 1 });
      try { await app.run('layer.delete', { layer: 'x' }); } catch (e) { app.log(e.code); }
      return null;`;
    const r = await run<ScriptOut>(engine, 'script.run', { code });
    expect(r.logs).toEqual(['hi {"n":1}', 'command_disabled']);
    expect(await fails(engine, 'script.run', { code: "await app.run('no.such', {});" })).toBe(
      'unknown_command',
    );
  });

  it("console's other methods log too, and a script that throws names what it logged in the remedy", async () => {
    const engine = newEngine();
    const code = `console.info('i'); console.warn('w', 2); console.error('e'); console.debug('d');
      return 1;`;
    const r = await run<ScriptOut>(engine, 'script.run', { code });
    expect(r.logs).toEqual(['i', 'warning: w 2', 'error: e', 'd']);
    const thrown = await engine.execute('script.run', {
      code: "console.log('loaded 3 layers'); console.log('step 2'); throw new Error('boom');",
    });
    expect(thrown.ok).toBe(false);
    if (!thrown.ok) {
      expect(thrown.error.message).toContain('boom');
      expect(thrown.error.remediation).toContain(
        'Lines logged before it failed (2): loaded 3 layers | step 2',
      );
    }
  });

  it('a script that logs 5000 lines keeps the first and last 500, says how many it left out, and where', async () => {
    const engine = newEngine();
    const r = await run<ScriptOut & { logsOmitted?: number }>(engine, 'script.run', {
      code: 'for (let i = 0; i < 5000; i++) app.log(`line ${i}`); return 1;',
    });
    expect(r.logsOmitted).toBe(4000);
    expect(r.logs).toHaveLength(1001);
    expect(r.logs.slice(0, 2)).toEqual(['line 0', 'line 1']);
    expect(r.logs[499]).toBe('line 499');
    expect(r.logs[500]).toBe('... 4000 more line(s) logged here, not kept ...');
    expect(r.logs.at(-1)).toBe('line 4999');
    expect(r.logs[501]).toBe('line 4500');
    // A failed script's remedy shows its true last lines.
    const failed = await engine.execute('script.run', {
      code: "for (let i = 0; i < 3000; i++) app.log(`at ${i}`); throw new Error('late');",
    });
    expect(failed.ok).toBe(false);
    if (!failed.ok) expect(failed.error.remediation).toContain('at 2999');
    // Long lines are cut, and the whole log kept within 64 KB (1000 lines of 20 KB ended an MCP session).
    const wide = await run<ScriptOut & { logsOmitted?: number }>(engine, 'script.run', {
      code: "for (let i = 0; i < 1000; i++) app.log(`w${i} ` + 'z'.repeat(20000)); return 1;",
    });
    expect(wide.logs.reduce((n, l) => n + l.length, 0)).toBeLessThanOrEqual(66_000);
    expect(wide.logs[0]).toMatch(/^w0 z{1997} … \(18003 more characters\)$/);
    expect(wide.logs.at(-1)).toMatch(/^w999 /);
    expect(wide.logsOmitted).toBeGreaterThan(900);
    expect(wide.logs).toContain(`... ${wide.logsOmitted} more line(s) logged here, not kept ...`);
    // Under the limit nothing is said.
    const few = await run<ScriptOut>(engine, 'script.run', { code: "app.log('a'); return 1;" });
    expect(few).not.toHaveProperty('logsOmitted');
  });

  it('a script that fails after edits says they stay applied; its result is left out when too large to read', async () => {
    const engine = newEngine();
    const failed = await engine.execute('script.run', {
      code: "await app.run('comp.new', { name: 'S', width: 32, height: 32 }); await app.run('comp.new', { name: 'T', width: 32, height: 32 }); throw new Error('boom');",
    });
    expect(failed.ok).toBe(false);
    if (!failed.ok)
      expect(failed.error.message).toBe(
        'The script threw: boom (2 command(s) it ran before that succeeded: their edits stay applied, each its own undo step)',
      );
    expect(engine.document.items.filter((i) => i.type === 'composition')).toHaveLength(2);
    const big = await run<ScriptOut & { note?: string }>(engine, 'script.run', {
      code: "app.log('made'); return 'x'.repeat(5_000_000);",
    });
    expect(big.result).toBeNull();
    expect(big.logs).toEqual(['made']);
    expect(big.note).toMatch(/return value is 5000002 characters of JSON, over the 65536 a result carries/);
    expect(big.note).toContain('Return less');
    const fits = await run<ScriptOut>(engine, 'script.run', { code: "return 'x'.repeat(60_000);" });
    expect(fits.result).toHaveLength(60_000);
  });

  it('returns structured-cloneable results, and the JSON form of others', async () => {
    const engine = newEngine();
    const dated = await run<ScriptOut>(engine, 'script.run', {
      code: 'return { d: new Date(0), u: undefined };',
    });
    expect((dated.result as { d: Date }).d.getTime()).toBe(0);
    const withFn = await run<ScriptOut>(engine, 'script.run', { code: 'return { a: 1, f() {} };' });
    expect(withFn.result).toEqual({ a: 1 });
    const circular = 'const o = { f() {} }; o.self = o; return o;';
    expect(await fails(engine, 'script.run', { code: circular })).toBe('tool_failed');
    // A plain cycle survives the trip from the worker but not JSON: a clear error, not an unexpected failure.
    expect(await fails(engine, 'script.run', { code: 'const o = {}; o.self = o; return o;' })).toBe(
      'bad_argument',
    );
    expect(await run<ScriptOut>(engine, 'script.run', { code: 'return undefined;' })).toMatchObject({
      result: null,
    });
  });
});
