/** A runaway script over the bridge is stopped by its limit in the app, which keeps serving afterwards. */
import { describe, expect, it } from 'vitest';
import { connect, startApp, tempDir } from './harness.js';

describe('script.run over the bridge', () => {
  it('ends while(true){} with code timeout and the app answers the next command', async () => {
    const app = await startApp(await tempDir());
    const { backend } = connect(app);
    const r = await backend.execute('script.run', { code: 'while (true) {}', timeoutMs: 300 });
    expect(r).toMatchObject({ ok: false, error: { code: 'timeout' } });
    const made = await backend.execute('comp.new', { name: 'After', width: 10, height: 10 });
    expect(made).toMatchObject({ ok: true });
    expect(app.engine.document.items.map((i) => i.name)).toEqual(['After']);
  });
});
