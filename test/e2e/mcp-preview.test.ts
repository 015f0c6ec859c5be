/**
 * A heavy render_preview over real stdio (built CLI): the frame is drawn off the main thread, so pings are
 * answered while it renders, and notifications/cancelled stops it (the next preview does not wait for it).
 */
import { describe, expect, it } from 'vitest';
import { fanOutSteps } from '../helpers/fan-out.js';
import { RawServer } from './mcp-helpers.js';

/** How long a ping may take while a preview renders: generous, for a loaded 2-core machine. */
const PING_BOUND_MS = 2000;

describe('render_preview of a heavy frame (built CLI, raw stdio)', () => {
  it('answers pings while it renders, and stops on notifications/cancelled', async () => {
    const s = new RawServer();
    await s.initialize();
    // 4 levels of 9 precomp layers, offset in time so nothing is shared: 7,380 different 2048x2048 nested
    // frames (6,561 of them blurred), within the per-frame limit, and minutes of drawing.
    const steps = fanOutSteps({ levels: 4, width: 9, size: 2048, offsetTimes: true, leafBlur: 40 });
    const built = await s.request('build', 'tools/call', { name: 'command_batch', arguments: { steps } });
    expect(built.result?.isError).toBeUndefined();

    s.send({
      jsonrpc: '2.0',
      id: 'heavy',
      method: 'tools/call',
      params: { name: 'render_preview', arguments: { comp: 'F4', max_side: 2048 } },
    });
    // Let it get under way (this is not measured).
    await new Promise((r) => setTimeout(r, 1000));
    for (const id of ['ping1', 'ping2']) {
      const sent = performance.now();
      const pong = await s.request(id, 'ping');
      expect(pong.result).toEqual({});
      expect(performance.now() - sent).toBeLessThan(PING_BOUND_MS);
    }
    expect(s.messages.some((m) => m.id === 'heavy')).toBe(false);

    s.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'heavy' } });
    // Calls on one connection run in order: this preview starts only once the heavy one has really stopped
    // (had it gone on, it would wait minutes for it and the test would time out).
    const light = await s.request('light', 'tools/call', {
      name: 'render_preview',
      arguments: { comp: 'F0', max_side: 64 },
    });
    expect(light.result?.isError).toBeUndefined();
    expect((light.result?.content as { type: string }[]).some((c) => c.type === 'image')).toBe(true);
    // A cancelled request gets no reply.
    expect(s.messages.some((m) => m.id === 'heavy')).toBe(false);
    s.endInput();
    expect(await s.exited).toBe(0);
  });
});

describe('frame.preview through command_run (built CLI, raw stdio)', () => {
  it('comes back as an image, not base64 in the JSON text', async () => {
    const s = new RawServer();
    await s.initialize();
    const steps = [
      { id: 'comp.new', params: { name: 'Main', width: 320, height: 180, frameRate: 25, duration: 1 } },
      { id: 'layer.addSolid', params: { comp: 'Main', color: '#ff0000' } },
    ];
    const built = await s.request('build', 'tools/call', { name: 'command_batch', arguments: { steps } });
    expect(built.result?.isError).toBeUndefined();
    const r = await s.request('p', 'tools/call', {
      name: 'command_run',
      arguments: { id: 'frame.preview', params: { comp: 'Main', time: 0 } },
    });
    const content = r.result?.content as { type: string; data?: string; text?: string; mimeType?: string }[];
    const image = content.find((c) => c.type === 'image');
    expect(image?.mimeType).toBe('image/png');
    expect(Buffer.from(image!.data!, 'base64').subarray(1, 4).toString()).toBe('PNG');
    // The frame's facts stay as JSON; the picture is not in them a second time.
    const text = content.find((c) => c.type === 'text')!.text!;
    expect(text).not.toContain('"png":"');
    expect(text.length).toBeLessThan(2000);
    expect(JSON.stringify(r.result?.structuredContent)).not.toContain('"png":"');
    s.endInput();
    expect(await s.exited).toBe(0);
  });
});
