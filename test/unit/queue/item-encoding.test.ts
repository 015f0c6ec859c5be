import { describe, expect, it } from 'vitest';
import { Engine, engineCommands, type SurfaceWords } from '../../../src/engine/index.js';
import { createNodePorts } from '../../../src/node-io/engine-ports.js';
import { queueItemCommands } from '../../../src/render/queue/commands/index.js';
import { CLI_WORDS } from '../../../src/cli/cli-words.js';
import { createSession } from '../../../src/session.js';
import { fails, newEngine, run } from '../../helpers/engine.js';

async function withComp(engine = newEngine()) {
  await run(engine, 'comp.new', { name: 'Main', width: 64, height: 64, frameRate: 10, duration: 2 });
  return engine;
}

const CLI_LIKE: SurfaceWords = {
  inspect: 'INSPECT-VERB',
  queue: 'QUEUE-VERB',
  schemas: 'SCHEMAS-VERB',
  commands: 'COMMANDS-VERB',
  newOutput: 'NEW-OUTPUT-VERB',
  addOutput: 'ADD-OUTPUT-VERB',
  param: (name) => `--flag-for-${name}`,
  paramOf: (name, command) => `--flag-for-${name} (not ${command})`,
};

describe('render queue item encoding', () => {
  it('stores the encoding renderQueue.add accepts for the format', async () => {
    const engine = await withComp();
    await run(engine, 'renderQueue.add', {
      comp: 'Main',
      output: '/out/a.mp4',
      encoding: { codec: 'h265', crf: 28, x264Preset: 'fast' },
    });
    await run(engine, 'renderQueue.add', {
      comp: 'Main',
      output: '/out/a.mov',
      encoding: { proresProfile: 'lt' },
    });
    await run(engine, 'renderQueue.add', {
      comp: 'Main',
      output: '/out/a_[##].jpg',
      encoding: { quality: 50 },
    });
    await run(engine, 'renderQueue.add', {
      comp: 'Main',
      output: '/out/a.gif',
      encoding: { gifPalette: 'per-frame', gifDither: 'bayer' },
    });
    expect(engine.document.renderQueue.map((q) => q.encoding)).toEqual([
      { codec: 'h265', crf: 28, x264Preset: 'fast' },
      { proresProfile: 'lt' },
      { quality: 50 },
      { gifPalette: 'per-frame', gifDither: 'bayer' },
    ]);
    // Items added without one carry none: the format's defaults apply.
    await run(engine, 'renderQueue.add', { comp: 'Main', output: '/out/b.mp4' });
    expect(engine.document.renderQueue.at(-1)).not.toHaveProperty('encoding');
  });

  it('refuses settings the format cannot carry, names the format that can, and leaves the document unchanged', async () => {
    const engine = await withComp();
    const before = engine.document;
    const cases = [
      { output: '/out/a.mp4', encoding: { codec: 'prores' } },
      { output: '/out/a.mov', encoding: { crf: 20 } },
      { output: '/out/a_[##].png', encoding: { quality: 80 } },
      { output: '/out/a.webm', encoding: { crf: 70 } },
      { output: '/out/a.mp4', encoding: { crf: 60 } },
      { output: '/out/a.mp4', encoding: { gifDither: 'bayer' } },
      { output: '/out/a.mov', alpha: true, encoding: { proresProfile: 'hq' } },
    ];
    for (const c of cases) {
      const r = await engine.execute('renderQueue.add', { comp: 'Main', ...c });
      expect(r.ok, JSON.stringify(c)).toBe(false);
      if (!r.ok) expect(r.error.code).toBe('bad_argument');
    }
    expect(engine.document).toBe(before);
    const r = await engine.execute('renderQueue.add', {
      comp: 'Main',
      output: '/out/a.mp4',
      encoding: { codec: 'prores' },
    });
    expect(!r.ok && r.error.remediation).toMatch(/\.mov/);
  });

  it('renderQueue.update edits an item, infers the format of a new output, and refuses what add refuses', async () => {
    const engine = await withComp();
    const { id } = await run<{ id: string }>(engine, 'renderQueue.add', {
      comp: 'Main',
      output: '/out/a.mp4',
    });
    expect(await run(engine, 'renderQueue.update', { id, output: '/out/b.mov' })).toEqual({
      id,
      format: 'mov',
    });
    await run(engine, 'renderQueue.update', {
      id,
      encoding: { proresProfile: 'proxy' },
      frameRange: { start: 0, end: 4 },
    });
    const item = engine.document.renderQueue[0]!;
    expect(item).toMatchObject({ output: '/out/b.mov', format: 'mov', encoding: { proresProfile: 'proxy' } });
    expect(item.frameRange).toEqual({ start: 0, end: 4 });
    expect(await fails(engine, 'renderQueue.update', { id, encoding: { codec: 'h264' } })).toBe(
      'bad_argument',
    );
    expect(await fails(engine, 'renderQueue.update', { id: 'rq_99', output: '/out/c.mp4' })).toBe(
      'not_found',
    );
    expect(engine.document.renderQueue[0]).toBe(item);
  });

  it.each<[Record<string, unknown>, string, string, string, Record<string, unknown>]>([
    [{ audio: false }, '/out/u.wav', 'audio false from before', 'Pass "audio" true', { audio: true }],
    [
      { encoding: { audioBitrate: 256 }, output: '/out/u.mp4' },
      '/out/u.mov',
      'encoding {"audioBitrate":256} from before',
      'Pass "encoding" in this update: {} clears it',
      { encoding: {} },
    ],
    [{ alpha: true }, '/out/u.mp4', 'alpha true from before', 'Pass "alpha" false', { alpha: false }],
  ])(
    'an update that only changes the output, refused for a field the item kept (%j), says to pass it',
    async ({ output: from = '/out/u.mov', ...settings }, output, kept, pass, fix) => {
      const engine = await withComp();
      const { id } = await run<{ id: string }>(engine, 'renderQueue.add', {
        comp: 'Main',
        output: from,
        ...settings,
      });
      const before = engine.document.renderQueue[0];
      const r = await engine.execute('renderQueue.update', { id, output });
      expect(r.ok).toBe(false);
      if (r.ok) return;
      expect(r.error.remediation).toContain(kept);
      expect(r.error.remediation).toContain(pass);
      expect(r.error.remediation).not.toMatch(/Leave out/);
      expect(engine.document.renderQueue[0]).toBe(before);
      // Doing what it says works; a field the update itself passes keeps the usual remedy.
      await run(engine, 'renderQueue.update', { id, output, ...fix });
      const again = await engine.execute('renderQueue.update', { id, ...settings });
      expect(!again.ok && again.error.remediation).not.toContain('from before');
    },
  );
});

describe('queue item warnings', () => {
  it('audio: true on a format without sound says it does nothing; on MP4, nothing to say', async () => {
    const engine = await withComp();
    const gif = await engine.execute('renderQueue.add', { comp: 'Main', output: '/out/a.gif', audio: true });
    expect(gif.ok && gif.warnings).toEqual([expect.stringContaining('audio: true does nothing for GIF')]);
    const mp4 = await engine.execute('renderQueue.add', { comp: 'Main', output: '/out/a.mp4', audio: true });
    expect(mp4.ok && mp4.warnings).toBeFalsy();
  });
});

describe('remedies worded for the surface', () => {
  it('name MCP tools by default and the engine words of its surface otherwise', async () => {
    const mcp = await withComp();
    const cli = await withComp(
      new Engine({
        commands: [...engineCommands(), ...queueItemCommands()],
        ports: createNodePorts(),
        words: CLI_LIKE,
      }),
    );
    const missingComp = { comp: 'Nope', output: '/out/a.mp4' };
    const badCodec = { comp: 'Main', output: '/out/a.mp4', encoding: { codec: 'vp9' } };
    const a = await mcp.execute('renderQueue.add', missingComp);
    const b = await cli.execute('renderQueue.add', missingComp);
    expect(!a.ok && a.error.remediation).toContain('doc_inspect');
    expect(!b.ok && b.error.remediation).toContain('INSPECT-VERB');
    expect(!b.ok && b.error.remediation).not.toContain('doc_inspect');
    const c = await mcp.execute('renderQueue.add', badCodec);
    const d = await cli.execute('renderQueue.add', badCodec);
    expect(!c.ok && c.error.remediation).toContain('"encoding.codec"');
    expect(!d.ok && d.error.remediation).toContain('--flag-for-encoding.codec');
    // A param the schema refuses is named in the message too: by its flag at the CLI.
    const tooBig = { comp: 'Main', output: '/out/a_[#].png', scale: 9 };
    const f = await mcp.execute('renderQueue.add', tooBig);
    const g = await cli.execute('renderQueue.add', tooBig);
    expect(!f.ok && f.error.message).toMatch(/^Invalid parameter "scale" for renderQueue.add: /);
    expect(!g.ok && g.error.message).toMatch(/^Invalid --flag-for-scale \(not renderQueue.add\): /);
    const e = await cli.execute('renderQueue.remove', { id: 'rq_9' });
    expect(!e.ok && e.error.remediation).toContain('QUEUE-VERB');
  });

  it('a session serves MCP words unless created with the CLI words (as the MCP server and the CLI create theirs)', async () => {
    const params = { comp: 'Nope', frameRange: { start: 0, end: 3 } };
    for (const [session, expected, absent] of [
      [createSession(), 'doc_inspect', 'effectcraft-cli'],
      [createSession({ words: CLI_WORDS }), 'effectcraft-cli inspect PROJECT', 'doc_inspect'],
    ] as const) {
      await run(session.engine, 'comp.new', {
        name: 'Main',
        width: 64,
        height: 64,
        frameRate: 10,
        duration: 2,
      });
      const r = await session.engine.execute('renderQueue.add', { ...params, output: '/out/a.mp4' });
      expect(!r.ok && r.error.remediation).toContain(expected);
      expect(!r.ok && r.error.remediation).not.toContain(absent);
      const range = await session.engine.execute('renderQueue.add', {
        ...params,
        comp: 'Main',
        frameRange: { start: 0, end: 99 },
        output: '/out/a.mp4',
      });
      expect(!range.ok && range.error.remediation).toContain(
        expected === 'doc_inspect' ? '"frameRange"' : '--frames',
      );
    }
  });
});
