/**
 * Renders as MCP tasks (extension io.modelcontextprotocol/tasks, 2026-07-28) over raw stdio: advertised on
 * server/discover, a task for a declaring client's renderQueue.render, progress as statusMessage, the result
 * inlined once done (a failed item too, as isError), tasks/cancel with today's exact cleanup, the protocol
 * errors, and today's blocking answer unchanged for every client that does not declare the extension.
 */
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/tmp.js';
import { RawServer, envelope, renderSetup } from './mcp-helpers.js';
import { TASKS, declaring, expectTaskFields, pollTask, type Ask } from './mcp-tasks-helpers.js';

let nextId = 0;
const askOf =
  (s: RawServer): Ask =>
  (method, params) =>
    s.request(`q${++nextId}`, method, params);

/** A stdio server with a queued render of `frames` frames into a fresh folder. */
async function withQueuedRender(frames: number, size: number, output = (dir: string) => dir) {
  const dir = await tempDir('ec-mcp-tasks-');
  const s = new RawServer();
  const setup = await s.request('setup', 'tools/call', {
    name: 'command_batch',
    arguments: { steps: renderSetup(output(dir), frames, size) },
    _meta: envelope(),
  });
  expect(setup.result?.isError).toBeUndefined();
  return { s, dir, ask: askOf(s) };
}

const renderParams = (meta: Record<string, unknown>, tool = 'command_run') => ({
  name: tool,
  arguments: { id: 'renderQueue.render' },
  _meta: meta,
});

describe('mcp renders as tasks (stdio)', () => {
  it('advertises the extension on server/discover and not on the 2025 handshake', async () => {
    const s = new RawServer();
    const discover = await s.request(1, 'server/discover', { _meta: envelope() });
    expect(discover.result?.capabilities).toMatchObject({ extensions: { [TASKS]: {} } });
    expect(discover.result?.capabilities).not.toHaveProperty('tasks');
    const legacy = new RawServer();
    const init = await legacy.initialize();
    // Other extensions (MCP Apps) may be advertised there; tasks is not.
    const legacyExtensions =
      (init.result?.capabilities as { extensions?: object } | undefined)?.extensions ?? {};
    expect(Object.keys(legacyExtensions)).not.toContain(TASKS);
    // Nor does the 2025 era get the tasks methods.
    expect((await legacy.request(2, 'tasks/get', { taskId: 'x' })).error?.code).toBe(-32601);
  });

  it.each(['command_run', 'execute_command'])(
    'answers a declaring client with a task (%s): progress as statusMessage, then the result inlined',
    async (tool) => {
      const { s, dir, ask } = await withQueuedRender(150, 256);
      // Even with a progress token: a task reports statusMessage, never progress notifications.
      const created = await ask('tools/call', renderParams(declaring({ progressToken: 'tok' }), tool));
      const task = created.result!;
      expect(task).toMatchObject({ resultType: 'task', status: 'working' });
      expectTaskFields(task);
      for (const key of ['result', 'error', 'inputRequests', 'task', 'structuredContent'])
        expect(task).not.toHaveProperty(key);
      const taskId = task.taskId as string;
      // Durable at once: a tasks/get straight after the CreateTaskResult resolves.
      expect((await ask('tasks/get', { taskId, _meta: declaring() })).result).toMatchObject({ taskId });
      const working = await pollTask(
        ask,
        taskId,
        (t) => t.status !== 'working' || /frame [1-9]/.test(String(t.statusMessage)),
      );
      expect(working.status).toBe('working');
      expect(working.statusMessage).toMatch(/^rendering rq_\d+: frame \d+\/150/);
      expect(working).toMatchObject({ resultType: 'complete' });
      expect(working).not.toHaveProperty('result');
      const done = await pollTask(ask, taskId, (t) => t.status !== 'working');
      expect(done.status).toBe('completed');
      expectTaskFields(done);
      const result = done.result as Record<string, unknown>;
      expect(result.isError).toBeUndefined();
      expect(result.structuredContent).toMatchObject({
        completed: 1,
        failed: 0,
        items: [{ status: 'done', frames: 150 }],
      });
      expect(
        (result._meta as Record<string, unknown> | undefined)?.['io.modelcontextprotocol/related-task'],
      ).toBeUndefined();
      expect((await readdir(dir)).filter((f) => f.endsWith('.png'))).toHaveLength(150);
      expect(s.messages.some((m) => m.method === 'notifications/progress')).toBe(false);
    },
  );

  it('reports a failed item as completed with isError', async () => {
    // The output folder's parent is a file: the item fails when the exporter creates its folder.
    const { ask, dir } = await withQueuedRender(10, 64, (d) => join(d, 'blocker', 'out'));
    await writeFile(join(dir, 'blocker'), 'not a folder');
    const created = await ask('tools/call', renderParams(declaring()));
    const done = await pollTask(ask, created.result!.taskId as string, (t) => t.status !== 'working');
    expect(done.status).toBe('completed');
    expect(done).not.toHaveProperty('error');
    const result = done.result as Record<string, unknown>;
    expect(result.isError).toBe(true);
    expect(result.structuredContent).toMatchObject({ failed: 1, items: [{ status: 'failed' }] });
  });

  it('tasks/cancel stops the render, removes exactly the files it made, and answers {} (also once ended)', async () => {
    const { s, dir, ask } = await withQueuedRender(600, 256);
    await writeFile(join(dir, 'keep.txt'), 'not the render’s');
    const created = await ask('tools/call', renderParams(declaring()));
    const taskId = created.result!.taskId as string;
    await pollTask(ask, taskId, (t) => /frame [1-9]/.test(String(t.statusMessage)));
    expect((await readdir(dir)).some((f) => f.endsWith('.png'))).toBe(true);
    const ack = await ask('tasks/cancel', { taskId, _meta: declaring() });
    expect(ack.error).toBeUndefined();
    expect(Object.keys(ack.result!).filter((k) => k !== '_meta')).toEqual(['resultType']);
    expect(ack.result!.resultType).toBe('complete');
    // The answer comes once the render has stopped and cleaned up: only the file it did not make is left.
    expect(await readdir(dir)).toEqual(['keep.txt']);
    const cancelled = await pollTask(ask, taskId, () => true);
    expect(cancelled.status).toBe('cancelled');
    expect(cancelled).not.toHaveProperty('result');
    // Idempotent on an ended task, and the queue item says what happened.
    expect((await ask('tasks/cancel', { taskId, _meta: declaring() })).result?.resultType).toBe('complete');
    const list = await ask('tools/call', {
      name: 'command_run',
      arguments: { id: 'renderQueue.list' },
      _meta: envelope(),
    });
    expect(list.result?.structuredContent).toMatchObject({ items: [{ status: 'stopped' }] });
    s.endInput();
    expect(await s.exited).toBe(0);
    expect(s.stderr).toMatch(/task \S+ \(command_run renderQueue\.render\) was cancelled by tasks\/cancel/);
  });

  it('refuses a second render at once while one runs as a task, instead of a task that ends refused', async () => {
    const { s, ask } = await withQueuedRender(600, 256);
    const first = await ask('tools/call', renderParams(declaring()));
    const taskId = first.result!.taskId as string;
    await pollTask(ask, taskId, (t) => /frame [1-9]/.test(String(t.statusMessage)));
    // Until 2026-12-07 this was a task too, which then completed with render_in_progress.
    const second = await ask('tools/call', renderParams(declaring()));
    expect(second.result).not.toHaveProperty('taskId');
    expect(second.result?.isError).toBe(true);
    expect(JSON.stringify(second.result?.content)).toContain('render_in_progress');
    await ask('tasks/cancel', { taskId, _meta: declaring() });
    s.endInput();
    expect(await s.exited).toBe(0);
  });

  it('stops a render still running as a task when the client closes stdin, with the same cleanup', async () => {
    const { s, dir, ask } = await withQueuedRender(600, 256);
    await writeFile(join(dir, 'keep.txt'), 'not the render’s');
    const created = await ask('tools/call', renderParams(declaring()));
    await pollTask(ask, created.result!.taskId as string, (t) => /frame [1-9]/.test(String(t.statusMessage)));
    s.endInput();
    expect(await s.exited).toBe(0);
    expect(await readdir(dir)).toEqual(['keep.txt']);
  });

  it('tasks/cancel on a completed task answers {} and leaves it completed with its result', async () => {
    const { ask } = await withQueuedRender(5, 64);
    const created = await ask('tools/call', renderParams(declaring()));
    const taskId = created.result!.taskId as string;
    await pollTask(ask, taskId, (t) => t.status !== 'working');
    expect((await ask('tasks/cancel', { taskId, _meta: declaring() })).result?.resultType).toBe('complete');
    // tasks/update is acknowledged (our tasks never ask for input, so its responses are ignored).
    const update = await ask('tasks/update', {
      taskId,
      inputResponses: { x: { action: 'accept' } },
      _meta: declaring(),
    });
    expect(update.result?.resultType).toBe('complete');
    expect(update.result).not.toHaveProperty('status');
    const after = await pollTask(ask, taskId, () => true);
    expect(after.status).toBe('completed');
    expect(after.result).toMatchObject({ structuredContent: { completed: 1 } });
    expect((after.result as { content: unknown[] }).content.length).toBeGreaterThan(0);
  });

  it('answers -32602 for an unknown task, -32021 without the declared extension, -32601 for removed methods', async () => {
    const s = new RawServer();
    const ask = askOf(s);
    for (const method of ['tasks/get', 'tasks/cancel', 'tasks/update']) {
      const unknown = await ask(method, { taskId: 'no-such-task', inputResponses: {}, _meta: declaring() });
      expect(unknown.error?.code).toBe(-32602);
      const undeclared = await ask(method, { taskId: 'no-such-task', inputResponses: {}, _meta: envelope() });
      expect(undeclared.error?.code).toBe(-32021);
      expect(undeclared.error?.data).toEqual({ requiredCapabilities: { extensions: { [TASKS]: {} } } });
    }
    for (const method of ['tasks/result', 'tasks/list'])
      expect((await ask(method, { taskId: 'no-such-task', _meta: declaring() })).error?.code).toBe(-32601);
    // A tool that is not a render answers as usual, and a 2025-style `task` param neither errs nor makes a task.
    const sync = await ask('tools/call', {
      name: 'doc_inspect',
      arguments: {},
      task: { ttl: 60_000, pollInterval: 100 },
      _meta: declaring(),
    });
    expect(sync.result).toMatchObject({ resultType: 'complete' });
    expect(sync.result).not.toHaveProperty('taskId');
  });

  it.each(['modern', 'legacy'] as const)(
    'gives a client that does not declare the extension today’s blocking result (%s era)',
    async (era) => {
      const dir = await tempDir('ec-mcp-tasks-');
      const s = new RawServer();
      const meta = era === 'modern' ? { _meta: envelope() } : {};
      if (era === 'legacy') await s.initialize();
      await s.request('setup', 'tools/call', {
        name: 'command_batch',
        arguments: { steps: renderSetup(dir, 20, 64) },
        ...meta,
      });
      const reply = await s.request('r', 'tools/call', {
        name: 'command_run',
        arguments: { id: 'renderQueue.render' },
        ...meta,
      });
      const keys = Object.keys(reply.result!).sort();
      expect(keys).toEqual(
        era === 'modern'
          ? ['_meta', 'content', 'resultType', 'structuredContent']
          : ['content', 'structuredContent'],
      );
      expect(reply.result).not.toHaveProperty('taskId');
      expect(reply.result?.structuredContent).toMatchObject({
        completed: 1,
        items: [{ status: 'done', frames: 20 }],
      });
      if (era === 'modern') expect(reply.result?.resultType).toBe('complete');
    },
  );

  it('keeps wait:false an immediate answer for a declaring client', async () => {
    const { ask } = await withQueuedRender(5, 64);
    const r = await ask('tools/call', {
      name: 'command_run',
      arguments: { id: 'renderQueue.render', params: { wait: false } },
      _meta: declaring(),
    });
    expect(r.result).toMatchObject({ resultType: 'complete', structuredContent: { started: true } });
    expect(r.result).not.toHaveProperty('taskId');
  });
});
