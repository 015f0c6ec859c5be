/**
 * A long batch lets other requests through: its steps never await anything that leaves the microtask queue, so
 * unless the engine yields to the event loop, a ping (or any request) waits until the last step is done.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { answeredDuring, spinSteps } from '../../helpers/spin.js';
import { harness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('long batches over MCP', () => {
  for (const tool of ['command_batch', 'batch']) {
    it(`${tool}: a ping is answered while 2,000 synchronous steps run`, async () => {
      h = await harness();
      const client = h.client;
      // 2,000 steps of half a millisecond: the batch runs for over a second.
      const run = client.callTool({ name: tool, arguments: { steps: spinSteps(2000, 0.5) } });
      const r = await answeredDuring(run, () => client.ping());
      expect(r.heavyStillRunning).toBe(true);
      expect(r.waitedMs).toBeLessThan(2000);
      expect(r.heavy.isError).toBeFalsy();
      expect(r.heavy.structuredContent).toMatchObject({ completed: 2000 });
    });
  }
});
