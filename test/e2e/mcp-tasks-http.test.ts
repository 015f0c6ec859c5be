/**
 * Renders as MCP tasks over `mcp --http`: every HTTP request is served by its own server instance, so these
 * prove the task store is the process's (a task made in one request is read and cancelled in others), and that
 * the Mcp-Name header must name the task (SEP-2663's routing header).
 */
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/tmp.js';
import { envelope, renderSetup } from './mcp-helpers.js';
import { HttpMcp, TASKS, declaring, expectTaskFields, pollTask } from './mcp-tasks-helpers.js';

async function queuedRender(http: HttpMcp, frames: number, size: number): Promise<string> {
  const dir = await tempDir('ec-mcp-tasks-http-');
  const setup = await http.post('tools/call', {
    name: 'command_batch',
    arguments: { steps: renderSetup(dir, frames, size) },
    _meta: envelope(),
  });
  expect(setup.message.result?.isError).toBeUndefined();
  return dir;
}

const render = { name: 'command_run', arguments: { id: 'renderQueue.render' } };

describe('mcp renders as tasks (HTTP)', () => {
  it('keeps a task made in one request for tasks/get in the next ones, until its result is inlined', async () => {
    const http = await HttpMcp.start();
    const discover = await http.post('server/discover', { _meta: envelope() });
    expect(discover.message.result?.capabilities).toMatchObject({ extensions: { [TASKS]: {} } });
    await queuedRender(http, 100, 128);
    const created = await http.post('tools/call', { ...render, _meta: declaring() });
    expect(created.status).toBe(200);
    expect(created.message.result).toMatchObject({ resultType: 'task', status: 'working' });
    expectTaskFields(created.message.result);
    const taskId = created.message.result!.taskId as string;
    const progressing = await pollTask(
      http.ask,
      taskId,
      (t) => t.status !== 'working' || /frame/.test(String(t.statusMessage)),
    );
    expect(String(progressing.statusMessage)).toMatch(/^rendering rq_\d+: frame \d+\/100|^finished/);
    const done = await pollTask(http.ask, taskId, (t) => t.status !== 'working');
    expect(done).toMatchObject({ status: 'completed', result: { structuredContent: { completed: 1 } } });
  });

  it('refuses a tasks request whose Mcp-Name header does not name its task (400, -32020)', async () => {
    const http = await HttpMcp.start();
    await queuedRender(http, 5, 64);
    const created = await http.post('tools/call', { ...render, _meta: declaring() });
    const taskId = created.message.result!.taskId as string;
    for (const method of ['tasks/get', 'tasks/cancel']) {
      const wrong = await http.post(method, { taskId, _meta: declaring() }, 'some-other-task');
      expect(wrong.status).toBe(400);
      expect(wrong.message.error?.code).toBe(-32020);
      const missing = await http.post(method, { taskId, _meta: declaring() }, null);
      expect(missing.status).toBe(400);
      expect(missing.message.error?.code).toBe(-32020);
    }
    const right = await http.post('tasks/get', { taskId, _meta: declaring() });
    expect(right.status).toBe(200);
    expect(right.message.result?.taskId).toBe(taskId);
  });

  it('cancels from another request with today’s cleanup; unknown ids, undeclared and removed methods answer errors', async () => {
    const http = await HttpMcp.start();
    const dir = await queuedRender(http, 600, 256);
    await writeFile(join(dir, 'keep.txt'), 'not the render’s');
    const created = await http.post('tools/call', { ...render, _meta: declaring() });
    const taskId = created.message.result!.taskId as string;
    await pollTask(http.ask, taskId, (t) => /frame [1-9]/.test(String(t.statusMessage)));
    const ack = await http.post('tasks/cancel', { taskId, _meta: declaring() });
    expect(ack.message.result?.resultType).toBe('complete');
    expect(ack.message.result).not.toHaveProperty('taskId');
    expect(await readdir(dir)).toEqual(['keep.txt']);
    expect((await pollTask(http.ask, taskId, () => true)).status).toBe('cancelled');
    expect(
      (await http.post('tasks/get', { taskId: 'no-such-task', _meta: declaring() })).message.error?.code,
    ).toBe(-32602);
    expect((await http.post('tasks/get', { taskId, _meta: envelope() })).message.error?.code).toBe(-32021);
    for (const method of ['tasks/result', 'tasks/list'])
      expect((await http.post(method, { taskId, _meta: declaring() })).message.error?.code).toBe(-32601);
  });

  it('stops a render running as a task when the server is stopped (SIGTERM), with the same cleanup', async () => {
    const http = await HttpMcp.start();
    const dir = await queuedRender(http, 600, 256);
    await writeFile(join(dir, 'keep.txt'), 'not the render’s');
    const created = await http.post('tools/call', { ...render, _meta: declaring() });
    await pollTask(http.ask, created.message.result!.taskId as string, (t) =>
      /frame [1-9]/.test(String(t.statusMessage)),
    );
    expect(await http.stop()).toBe(0);
    expect(await readdir(dir)).toEqual(['keep.txt']);
  });
});
