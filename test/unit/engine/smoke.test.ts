import { describe, expect, it } from 'vitest';
import { createSession } from '../../../src/session.js';

describe('smoke', () => {
  it('runs a few commands', async () => {
    const { engine } = createSession();
    const c = await engine.execute('comp.new', { width: 320, height: 240, name: 'Main' });
    expect(c).toEqual({ ok: true, result: { id: 'comp_1' } });
    const s = await engine.execute('layer.addSolid', { color: '#ff0000' });
    expect(s.ok).toBe(true);
    const k = await engine.execute('property.setKeyframe', {
      layer: 'Solid',
      property: 'transform.opacity',
      time: 1,
      value: 50,
    });
    expect(k.ok).toBe(true);
    const bad = await engine.execute('comp.new', { width: 1, height: 1, bogus: 1 });
    expect(bad.ok).toBe(false);
    console.log(JSON.stringify(bad));
    const list = engine.list({ schemas: true, filter: 'comp.new' });
    console.log(JSON.stringify(list[0]?.params).slice(0, 400));
    expect(engine.view.canUndo).toBe(true);
    await engine.execute('edit.undo', {});
    await engine.execute('edit.undo', {});
    await engine.execute('edit.undo', {});
    expect(engine.document.items.length).toBe(0);
  });
});
