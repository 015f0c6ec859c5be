/**
 * The script protocol over the engine's startScript port, with a stand-in thread playing the worker's side:
 * the wall-clock limit counts from the moment the script starts, and a thread that never starts it is stopped.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Engine, engineCommands, type EnginePorts, type ExecuteResult } from '../../../src/engine/index.js';
import type { ScriptThreadEvents } from '../../../src/engine/script-protocol.js';
import { SCRIPT_START_LIMIT_MS } from '../../../src/engine/scripting.js';
import { createNodePorts } from '../../../src/node-io/engine-ports.js';

/** An engine whose script threads are stand-ins: `play` acts as the worker, through the events it is given. */
function engineWith(play: (events: ScriptThreadEvents) => void): { engine: Engine; stops: () => number } {
  let stops = 0;
  const ports: EnginePorts = {
    ...createNodePorts(),
    startScript(_data, events) {
      play(events);
      return { post: () => undefined, stop: () => void stops++ };
    },
  };
  return { engine: new Engine({ commands: engineCommands(), ports }), stops: () => stops };
}

const codeOf = (r: ExecuteResult) => (r.ok ? 'ok' : r.error.code);

afterEach(() => {
  vi.useRealTimers();
});

describe('script time limits', () => {
  it('do not count the time a thread takes to start the script', async () => {
    const { engine } = engineWith((events) => {
      setTimeout(() => events.message({ type: 'started' }), 400);
      setTimeout(() => events.message({ type: 'done', result: 7 }), 500);
    });
    const r = await engine.execute('script.run', { code: 'return 7', timeoutMs: 300 });
    expect(r).toMatchObject({ ok: true, result: { result: 7, commands: 0 } });
  });

  it('count from the start of the script', async () => {
    // Only the clocks the limits use: the engine's pacing (setImmediate, performance.now) stays real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { engine, stops } = engineWith((events) =>
      setTimeout(() => events.message({ type: 'started' }), 50),
    );
    const pending = engine.execute('script.run', { code: 'for (;;) {}', timeoutMs: 300 });
    await vi.advanceTimersByTimeAsync(349);
    expect(stops()).toBe(0);
    await vi.advanceTimersByTimeAsync(1);
    expect(codeOf(await pending)).toBe('timeout');
    expect(stops()).toBe(1);
  });

  it('stop a thread that never starts the script, with code timeout', async () => {
    // Only the clocks the limits use: the engine's pacing (setImmediate, performance.now) stays real.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    const { engine, stops } = engineWith(() => undefined);
    const pending = engine.execute('script.run', { code: 'return 1', timeoutMs: 300 });
    await vi.advanceTimersByTimeAsync(SCRIPT_START_LIMIT_MS);
    expect(codeOf(await pending)).toBe('timeout');
    expect(stops()).toBe(1);
  });
});
