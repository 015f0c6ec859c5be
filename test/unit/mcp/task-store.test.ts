import { describe, expect, it } from 'vitest';
import { ProtocolError, ProtocolErrorCode, type CallToolResult } from '@modelcontextprotocol/server';
import { TaskStore, type TaskControl } from '../../../src/mcp/tasks/store.js';

const text = (t: string): CallToolResult => ({ content: [{ type: 'text', text: t }] });
/** As a render's plan says: the summary counts no stopped item. */
const ranToEnd = (r: CallToolResult) =>
  (r.structuredContent as { stopped?: number } | undefined)?.stopped === 0;

/** A store on a clock the test moves, and a task whose work the test finishes by hand. */
function setUp(ttlMs = 1000, ranToEnd?: (r: CallToolResult) => boolean) {
  let clock = Date.parse('2026-12-01T00:00:00Z');
  const logs: string[] = [];
  const store = new TaskStore({ ttlMs, pollIntervalMs: 250, now: () => clock, log: (m) => logs.push(m) });
  let finish!: (r: CallToolResult) => void;
  let fail!: (e: unknown) => void;
  let control!: TaskControl;
  const task = store.start(
    'test work',
    'starting',
    (c) => {
      control = c;
      return new Promise<CallToolResult>((resolve, reject) => {
        finish = resolve;
        fail = reject;
      });
    },
    ranToEnd,
  );
  return {
    store,
    task,
    finish: (r: CallToolResult) => finish(r),
    fail: (e: unknown) => fail(e),
    control: () => control,
    tick: (ms: number) => (clock += ms),
    logs,
  };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('TaskStore', () => {
  it('holds a task from the moment start returns, with integer ttlMs and pollIntervalMs', () => {
    const { store, task } = setUp();
    expect(task).toMatchObject({
      status: 'working',
      statusMessage: 'starting',
      ttlMs: 1000,
      pollIntervalMs: 250,
    });
    expect(task.createdAt).toBe('2026-12-01T00:00:00.000Z');
    expect(store.get(task.taskId)).toMatchObject({ taskId: task.taskId, status: 'working' });
    expect(task).not.toHaveProperty('result');
  });

  it('updates statusMessage and lastUpdatedAt while working; ttlMs counts from creation to expiry', () => {
    const { store, task, control, tick } = setUp();
    tick(400);
    control().status('frame 3/10');
    expect(store.get(task.taskId)).toMatchObject({
      statusMessage: 'frame 3/10',
      lastUpdatedAt: '2026-12-01T00:00:00.400Z',
      ttlMs: 1400,
    });
  });

  it('inlines the result once completed and keeps the task ttlMs after its last change', async () => {
    const { store, task, finish, tick } = setUp();
    finish(text('done'));
    await settle();
    expect(store.get(task.taskId)).toMatchObject({ status: 'completed', result: text('done') });
    tick(1000);
    expect(store.get(task.taskId)).toBeDefined();
    tick(1);
    expect(store.get(task.taskId)).toBeUndefined();
  });

  it('never drops a working task, however old', () => {
    const { store, task, tick } = setUp();
    tick(10_000_000);
    expect(store.get(task.taskId)?.status).toBe('working');
  });

  it('reports a thrown JSON-RPC error as failed with the error inlined, and no result', async () => {
    const { store, task, fail } = setUp();
    fail(new ProtocolError(ProtocolErrorCode.InvalidParams, 'bad', { x: 1 }));
    await settle();
    const failed = store.get(task.taskId);
    expect(failed).toMatchObject({
      status: 'failed',
      error: { code: -32602, message: 'bad', data: { x: 1 } },
    });
    expect(failed).not.toHaveProperty('result');
  });

  it('cancel aborts the work, waits for it, and keeps the task cancelled whatever the work returns', async () => {
    const { store, task, finish, control, tick, logs } = setUp();
    tick(1500);
    const cancelling = store.cancel(task.taskId);
    expect(control().signal.aborted).toBe(true);
    let answered = false;
    void cancelling.then(() => (answered = true));
    await settle();
    expect(answered).toBe(false);
    tick(200);
    finish(text('stopped'));
    expect(await cancelling).toBe(true);
    // The log tells how long it had run apart from how long stopping took.
    expect(logs).toEqual([
      `task ${task.taskId} (test work) was cancelled by tasks/cancel after 1.5 s of work and stopped 0.2 s later`,
    ]);
    const cancelled = store.get(task.taskId);
    expect(cancelled?.status).toBe('cancelled');
    expect(cancelled).not.toHaveProperty('result');
    expect(await store.cancel(task.taskId)).toBe(true);
    expect(await store.cancel('unknown')).toBe(false);
  });

  it('cancelAll says the server shutting down stopped a working task, not tasks/cancel', async () => {
    const { store, task, finish, tick, logs } = setUp();
    tick(1500);
    const stopping = store.cancelAll();
    await settle();
    tick(200);
    finish(text('stopped'));
    await stopping;
    expect(logs).toEqual([
      `task ${task.taskId} (test work) was stopped by the server shutting down after 1.5 s of work and ended 0.2 s later`,
    ]);
    expect(store.get(task.taskId)).toMatchObject({
      status: 'cancelled',
      statusMessage: 'stopped: the server shut down',
    });
  });

  it('reads completed with the result when the work had run to its end before the cancel could stop it', async () => {
    // A render cancelled after its last frame keeps its whole files and manifest: "cancelled" would hide them.
    const { store, task, finish, tick, logs } = setUp(1000, ranToEnd);
    tick(1500);
    const cancelling = store.cancel(task.taskId);
    await settle();
    // Until the work has returned the outcome is not known: the task stays working, saying so.
    expect(store.get(task.taskId)).toMatchObject({
      status: 'working',
      statusMessage: expect.stringMatching(/^cancelling/),
    });
    const second = store.cancel(task.taskId);
    const done = { ...text('done'), structuredContent: { stopped: 0 } };
    finish(done);
    expect(await cancelling).toBe(true);
    expect(await second).toBe(true);
    expect(store.get(task.taskId)).toMatchObject({ status: 'completed', result: done });
    expect(logs).toEqual([
      `task ${task.taskId} (test work) was cancelled by tasks/cancel after 1.5 s of work but had already run to its end: it reads completed`,
    ]);
  });

  it('reads cancelled when the work says it was stopped, or throws, after the cancel', async () => {
    const stopped = setUp(1000, ranToEnd);
    const first = stopped.store.cancel(stopped.task.taskId);
    stopped.finish({ ...text('stopped'), structuredContent: { stopped: 1 } });
    await first;
    expect(stopped.store.get(stopped.task.taskId)).toMatchObject({ status: 'cancelled' });
    expect(stopped.store.get(stopped.task.taskId)).not.toHaveProperty('result');

    const threw = setUp(1000, ranToEnd);
    const second = threw.store.cancel(threw.task.taskId);
    threw.fail(new Error('aborted'));
    await second;
    expect(threw.store.get(threw.task.taskId)).toMatchObject({
      status: 'cancelled',
      statusMessage: 'cancelled by tasks/cancel',
    });
  });
});
