/** get_output's chunk buffers: reused once given back, never handed out twice at once, let go when idle. */
import { describe, expect, it } from 'vitest';
import { ChunkBuffers } from '../../../src/mcp/remote/chunk-buffers.js';

describe('ChunkBuffers', () => {
  it('hands a given-back buffer out again, and two taken at once are different memory', () => {
    const pool = new ChunkBuffers(1024);
    const a = pool.take();
    const b = pool.take();
    expect(a.buffer).not.toBe(b.buffer);
    expect(a.buffer.length).toBe(1024);
    a.release();
    expect(pool.take().buffer).toBe(a.buffer);
  });

  it('takes a buffer back once, whatever the number of releases', () => {
    const pool = new ChunkBuffers(16);
    const a = pool.take();
    a.release();
    a.release();
    expect(pool.spares).toBe(1);
    const first = pool.take();
    const second = pool.take();
    expect(first.buffer).toBe(a.buffer);
    expect(second.buffer).not.toBe(a.buffer);
  });

  it('keeps at most maxSpare buffers, and none once idle', async () => {
    const pool = new ChunkBuffers(16, 2, 20);
    const taken = [pool.take(), pool.take(), pool.take()];
    for (const t of taken) t.release();
    expect(pool.spares).toBe(2);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(pool.spares).toBe(0);
  });
});
