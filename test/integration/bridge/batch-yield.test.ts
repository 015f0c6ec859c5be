/** The app host keeps answering while a long engine.batch runs (see test/integration/mcp/batch-yield.test.ts). */
import { describe, expect, it } from 'vitest';
import { answeredDuring, spinCommand, spinSteps } from '../../helpers/spin.js';
import { connect, startApp, tempDir } from './harness.js';

describe('a long engine.batch', () => {
  it('lets another connection be answered while 1,000 synchronous steps run', async () => {
    const app = await startApp(await tempDir(), { extraCommands: [spinCommand] });
    const one = connect(app).client;
    const two = connect(app).client;
    await two.call('session.view', {});
    // 1,000 steps (the most engine.batch takes) of 1 ms: the batch runs for over a second.
    const run = one.call('engine.batch', { steps: spinSteps(1000, 1) });
    const r = await answeredDuring(run, () => two.call('session.view', {}));
    expect(r.heavyStillRunning).toBe(true);
    expect(r.waitedMs).toBeLessThan(2000);
    expect(r.heavy).toMatchObject({ ok: true });
  });
});
