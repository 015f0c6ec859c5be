import { describe, expect, it } from 'vitest';
import { CleanupStack } from '../../../src/render/queue/cleanup.js';

/** A stack with steps a (always), b (on failure), c (always), recording the order they ran in. */
function stack() {
  const ran: string[] = [];
  const cleanup = new CleanupStack();
  cleanup.always(() => ran.push('a'));
  cleanup.onFailure(async () => {
    await new Promise((r) => setTimeout(r, 5));
    ran.push('b');
  });
  cleanup.always(() => ran.push('c'));
  return { cleanup, ran };
}

describe('CleanupStack', () => {
  it('on failure runs every step, last registered first, each awaited', async () => {
    const { cleanup, ran } = stack();
    await cleanup.drain(true);
    expect(ran).toEqual(['c', 'b', 'a']);
  });

  it('on success skips the failure-only steps (a finished item keeps its files)', async () => {
    const { cleanup, ran } = stack();
    await cleanup.drain(false);
    expect(ran).toEqual(['c', 'a']);
  });

  it('runs the remaining steps when one throws, then rethrows the first error', async () => {
    const ran: string[] = [];
    const cleanup = new CleanupStack();
    cleanup.always(() => ran.push('first registered'));
    cleanup.onFailure(() => {
      throw new Error('one');
    });
    cleanup.always(() => Promise.reject(new Error('two')));
    await expect(cleanup.drain(true)).rejects.toThrow('two');
    expect(ran).toEqual(['first registered']);
  });

  it('drains once: a second drain runs nothing', async () => {
    const { cleanup, ran } = stack();
    await cleanup.drain(true);
    await cleanup.drain(true);
    expect(ran).toEqual(['c', 'b', 'a']);
  });
});
