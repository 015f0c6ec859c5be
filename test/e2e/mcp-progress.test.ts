/**
 * Progress and cancellation of a blocking renderQueue.render through command_run, over real stdio, in both
 * eras: the server keeps serving during the render, progress is rate-limited and strictly increasing, a
 * cancelled request gets no reply and no further progress.
 */
import { describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/tmp.js';
import { RawServer, envelope, renderSetup, type Message } from './mcp-helpers.js';

const progressOf = (s: RawServer, token: string) =>
  s.messages.filter((m) => m.method === 'notifications/progress' && m.params?.progressToken === token);

async function setUp(era: 'legacy' | 'modern', frames: number, size: number) {
  const dir = await tempDir('ec-mcp-progress-');
  const s = new RawServer();
  const meta = era === 'modern' ? { _meta: envelope() } : {};
  if (era === 'legacy') await s.initialize();
  const setup = await s.request('setup', 'tools/call', {
    name: 'command_batch',
    arguments: { steps: renderSetup(dir, frames, size) },
    ...meta,
  });
  expect(setup.result?.isError).toBeUndefined();
  const render = (id: string, token: string | undefined) =>
    s.send({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: {
        name: 'command_run',
        arguments: { id: 'renderQueue.render' },
        _meta: { ...(era === 'modern' ? envelope() : {}), ...(token ? { progressToken: token } : {}) },
      },
    });
  return { s, dir, meta, render };
}

describe.each(['legacy', 'modern'] as const)('mcp render progress (%s era)', (era) => {
  it('streams rate-limited, strictly increasing progress and serves other requests meanwhile', async () => {
    const { s, meta, render } = await setUp(era, 150, 256);
    const started = performance.now();
    render('r1', 'tok');
    await s.waitFor((m) => m.method === 'notifications/progress');
    const ping = await s.request('during', era === 'modern' ? 'tools/call' : 'ping', {
      ...(era === 'modern' ? { name: 'doc_inspect', arguments: {} } : {}),
      ...meta,
    });
    expect(ping.error).toBeUndefined();
    const reply = await s.reply('r1');
    const elapsed = (performance.now() - started) / 1000;
    expect(reply.result?.isError).toBeUndefined();
    // The inspection was answered while the render was still running.
    expect(s.messages.indexOf(ping)).toBeLessThan(s.messages.indexOf(reply));
    const progress = progressOf(s, 'tok').map((m) => m.params as { progress: number; total?: number });
    expect(progress.length).toBeGreaterThan(0);
    for (let i = 1; i < progress.length; i++)
      expect(progress[i]!.progress).toBeGreaterThan(progress[i - 1]!.progress);
    for (const p of progress) expect(p.total).toBe(1);
    // The last one is the finished render's, sent before the reply (it was dropped behind the rate limit).
    expect(progress.at(-1)!.progress).toBe(1);
    // At most ten a second over the whole request (counted, not timed per message: pipes bunch deliveries).
    expect(progress.length).toBeLessThanOrEqual(Math.ceil(elapsed * 10) + 1);
    // No progress after the reply.
    const last = s.messages.lastIndexOf(progressOf(s, 'tok').at(-1) as Message);
    expect(last).toBeLessThan(s.messages.indexOf(reply));
  });

  it('sends no progress without a token', async () => {
    const { s, render } = await setUp(era, 20, 64);
    render('r2', undefined);
    await s.reply('r2');
    expect(s.messages.filter((m) => m.method === 'notifications/progress')).toHaveLength(0);
  });

  it('stops a cancelled render: no reply, no further progress, the session keeps serving', async () => {
    const { s, meta, render } = await setUp(era, 600, 256);
    render('r3', 'tok3');
    await s.waitFor((m) => m.method === 'notifications/progress');
    s.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'r3', reason: 'test', ...meta },
    });
    // An unknown id is ignored.
    s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'nope', ...meta } });
    const after = await s.request('after', 'tools/call', {
      name: 'command_run',
      arguments: { id: 'renderQueue.list' },
      ...meta,
    });
    expect(after.error).toBeUndefined();
    // The job really stopped: the queue item ends as "stopped" (polled; the job winds down asynchronously).
    for (let i = 0; ; i++) {
      const list = await s.request(`list${i}`, 'tools/call', {
        name: 'command_run',
        arguments: { id: 'renderQueue.list' },
        ...meta,
      });
      const items = (list.result?.structuredContent as { items?: { status: string }[] }).items ?? [];
      if (items[0]?.status === 'stopped') break;
      expect(items[0]?.status).toBe('rendering');
    }
    s.endInput();
    expect(await s.exited).toBe(0);
    expect(s.messages.some((m) => m.id === 'r3')).toBe(false);
    // The person reading the log learns what happened and how a long render avoids it.
    expect(s.stderr).toMatch(/command_run renderQueue\.render was cancelled by the client after [\d.]+ s/);
    expect(s.stderr).toContain('wait: false');
    const afterIndex = s.messages.indexOf(after);
    expect(progressOf(s, 'tok3').every((m) => s.messages.indexOf(m) < afterIndex)).toBe(true);
  });

  it('a render cut short by SIGTERM is logged as the server stopping, not as the client cancelling', async () => {
    const { s, render } = await setUp(era, 600, 256);
    render('r4', 'tok4');
    await s.waitFor((m) => m.method === 'notifications/progress');
    s.child.kill('SIGTERM');
    await s.exited;
    expect(s.stderr).toMatch(
      /command_run renderQueue\.render was stopped after [\d.]+ s: the server is stopping \(SIGTERM\)/,
    );
    expect(s.stderr).not.toContain('cancelled by the client');
  });
});
