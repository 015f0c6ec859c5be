/**
 * An item whose output has `{field}`s (a template's `out/{name}_[#].png`, saved by the CLI or an agent) renders
 * through renderQueue.render (MCP's way) as the CLI renders it: each field filled from the item's props, else
 * the composition's input of that name. It used to write a file literally named `{name}_0.png`. A field nothing
 * fills is refused before anything renders.
 */
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Session } from '../../../src/session.js';
import { addComp, failCode, listDir, queueSession, run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';

const sessions: Session[] = [];
afterEach(async () => {
  for (const s of sessions.splice(0)) {
    s.renderQueue.stop();
    await s.renderQueue.idle();
  }
});

/** A session with composition "T" whose text layer's text is the input "name" (default "Ada"). */
async function template(): Promise<{ s: Session; comp: string }> {
  const s = queueSession();
  sessions.push(s);
  const comp = await addComp(s, { name: 'T', duration: 0.2 });
  await run(s, 'layer.addText', { comp, text: 'Ada', name: 'Name' });
  await run(s, 'input.define', {
    comp,
    name: 'name',
    type: 'text',
    bind: [{ layer: 'Name', property: 'text.text' }],
  });
  return { s, comp };
}

describe('{field}s in an output, rendered by renderQueue.render', () => {
  it("are filled from the item's props, else the input's default", async () => {
    const dir = await tempDir();
    const { s, comp } = await template();
    await run(s, 'renderQueue.add', {
      comp,
      output: join(dir, '{name}_[#].png'),
      frameRange: { start: 0, end: 0 },
    });
    await run(s, 'renderQueue.add', {
      comp,
      output: join(dir, '{name}_[#].png'),
      frameRange: { start: 0, end: 0 },
      props: { name: 'Bo' },
    });
    const job = await run<{ completed: number }>(s, 'renderQueue.render', {});
    expect(job.completed).toBe(2);
    expect((await listDir(dir)).filter((f) => f.endsWith('.png'))).toEqual(['Ada_0.png', 'Bo_0.png']);
  });

  it('a field nothing fills is refused before anything renders', async () => {
    const dir = await tempDir();
    const { s, comp } = await template();
    await run(s, 'renderQueue.add', {
      comp,
      output: join(dir, '{shot}_[#].png'),
      frameRange: { start: 0, end: 0 },
    });
    expect(await failCode(s, 'renderQueue.render', {})).toBe('bad_argument');
    expect(await listDir(dir)).toEqual([]);
  });

  it('a value that cannot be in a file name is refused, the message naming the field and the value', async () => {
    const dir = await tempDir();
    const { s, comp } = await template();
    await run(s, 'renderQueue.add', {
      comp,
      output: join(dir, '{name}_[#].png'),
      frameRange: { start: 0, end: 0 },
      props: { name: '../up' },
    });
    const r = await s.engine.execute('renderQueue.render', {});
    expect(r).toMatchObject({ ok: false, error: { code: 'bad_argument' } });
    if (!r.ok)
      expect(r.error.message).toMatch(
        /writes to ".*\{name\}_\[#\]\.png": the value of "name" holds a path separator, "\.\." or a control character \("\.\.\/up"\)/,
      );
    expect(await listDir(dir)).toEqual([]);
  });
});
