import { describe, expect, it } from 'vitest';
import { FrameWriter } from '../../../src/render/queue/writer.js';
import type { Exporter } from '../../../src/render/queue/exporters/types.js';

function recorder(ordered: boolean, failAt = -1) {
  const written: number[] = [];
  const exporter: Exporter = {
    payload: { kind: 'rgba' },
    ordered,
    prepare: async () => new Set(),
    async writeFrame(frame) {
      await new Promise((r) => setImmediate(r));
      if (frame === failAt) throw new Error('boom');
      written.push(frame);
    },
    finish: async () => [],
    abort: async () => undefined,
  };
  return { exporter, written };
}

const size = { width: 1, height: 1 };
const data = new Uint8Array(4);

describe('FrameWriter', () => {
  it('writes frames in order for ordered exporters even when they arrive out of order', async () => {
    const { exporter, written } = recorder(true);
    const w = new FrameWriter(exporter, [3, 4, 5, 6, 7], () => undefined);
    for (const f of [6, 7, 3, 5, 4]) w.push(f, data, size);
    await w.flush();
    expect(written).toEqual([3, 4, 5, 6, 7]);
    expect(w.written).toBe(5);
  });

  it("hands each frame's buffer back only after the exporter has written it (never while it may still read it)", async () => {
    const events: string[] = [];
    const exporter: Exporter = {
      ...recorder(true).exporter,
      async writeFrame(frame) {
        events.push(`write ${frame}`);
        await new Promise((r) => setImmediate(r));
        events.push(`written ${frame}`);
      },
    };
    const w = new FrameWriter(exporter, [0, 1], () => undefined);
    w.push(1, data, size, () => events.push('release 1'));
    w.push(0, data, size, () => events.push('release 0'));
    await w.flush();
    expect(events).toEqual(['write 0', 'written 0', 'release 0', 'write 1', 'written 1', 'release 1']);
  });

  it('holds frames until the gap is filled', async () => {
    const { exporter, written } = recorder(true);
    const w = new FrameWriter(exporter, [0, 1, 2], () => undefined);
    w.push(1, data, size);
    w.push(2, data, size);
    await w.flush();
    expect(written).toEqual([]);
    w.push(0, data, size);
    await w.waitUntilWritten(3);
    expect(written).toEqual([0, 1, 2]);
  });

  it('reports the first write error and stops writing', async () => {
    const { exporter, written } = recorder(false, 1);
    const w = new FrameWriter(exporter, [0, 1, 2], () => undefined);
    [0, 1, 2].forEach((f) => w.push(f, data, size));
    await expect(w.flush()).rejects.toThrow('boom');
    expect(written).toEqual([0]);
  });

  it('accepts no frames after close, so cleanup sees every file that will be written', async () => {
    const { exporter, written } = recorder(false);
    const w = new FrameWriter(exporter, [0, 1, 2, 3], () => undefined);
    w.push(0, data, size);
    w.close();
    w.push(1, data, size);
    await w.flush();
    expect(written).toEqual([0]);
    const ordered = recorder(true);
    const o = new FrameWriter(ordered.exporter, [0, 1], () => undefined);
    o.push(1, data, size);
    o.close();
    o.push(0, data, size);
    await o.flush();
    expect(ordered.written).toEqual([]);
  });
  it('holds every write until what it was told to wait for has settled, taking frames meanwhile', async () => {
    const { exporter, written } = recorder(true);
    const w = new FrameWriter(exporter, [0, 1], () => undefined);
    let ready: () => void = () => undefined;
    w.holdUntil(new Promise<void>((r) => (ready = r)));
    w.push(0, data, size);
    w.push(1, data, size);
    await new Promise((r) => setTimeout(r, 20));
    expect(written).toEqual([]);
    ready();
    await w.flush();
    expect(written).toEqual([0, 1]);
  });

  it('fails with what it waited for when that fails: nothing is written, and a waiting dispatch wakes', async () => {
    const { exporter, written } = recorder(true);
    const w = new FrameWriter(exporter, [0, 1, 2], () => undefined);
    let fail: (e: Error) => void = () => undefined;
    w.holdUntil(new Promise<void>((_, reject) => (fail = reject)));
    w.push(0, data, size);
    const waiting = w.waitUntilWritten(1);
    fail(new Error('the encoder did not start'));
    await waiting;
    expect(w.error).toEqual(new Error('the encoder did not start'));
    await expect(w.flush()).rejects.toThrow('the encoder did not start');
    w.push(1, data, size);
    expect(written).toEqual([]);
  });
});
