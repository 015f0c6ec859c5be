import { describe, expect, it } from 'vitest';
import { GroupLock } from '../../../src/bridge/group-lock.js';

describe('GroupLock', () => {
  it('hands the lock over in arrival order, one holder at a time', async () => {
    const lock = new GroupLock();
    const order: string[] = [];
    const releaseA = await lock.acquire();
    const b = lock.acquire().then((release) => {
      order.push('b');
      return release;
    });
    const c = lock.acquire().then((release) => {
      order.push('c');
      release();
    });
    await new Promise((r) => setTimeout(r, 10));
    expect(order).toEqual([]);
    releaseA();
    const releaseB = await b;
    expect(order).toEqual(['b']);
    releaseB();
    releaseB(); // releasing twice is harmless
    await c;
    expect(order).toEqual(['b', 'c']);
  });
});
