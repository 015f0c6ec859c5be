/** The preview player's tools in process: frame numbers to comp time, the range checks, errors with remedies. */
import { afterEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';

let h: Harness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

/** A harness with two comps: Main (25 fps, 2 s: 50 frames, active) and Other. */
async function withComps(): Promise<Harness> {
  const made = await harness();
  for (const params of [
    { name: 'Other', width: 64, height: 64, frameRate: 30, duration: 1 },
    { name: 'Main', width: 1920, height: 1080, frameRate: 25, duration: 2 },
  ]) {
    const r = await made.client.callTool({ name: 'command_run', arguments: { id: 'comp.new', params } });
    expect(r.isError).toBeFalsy();
  }
  return made;
}

const body = (r: { structuredContent?: unknown }) => r.structuredContent as Record<string, unknown>;

describe('preview_player', () => {
  it('describes the active comp and its whole range by default, frames bounded by max_side (default 480)', async () => {
    h = await withComps();
    const r = await h.client.callTool({ name: 'preview_player', arguments: {} });
    expect(r.isError).toBeFalsy();
    expect(body(r)).toMatchObject({
      comp: { name: 'Main' },
      frameRate: 25,
      frames: 50,
      from: 0,
      to: 49,
      maxSide: 480,
      frameSize: { width: 480, height: 270 },
      timecodes: { from: '00:00:00:00', to: '00:00:01:24' },
    });
    const text = (r.content as { text: string }[])[0]!.text;
    expect(text).toContain('frame 25 is time 1');
    // Honest about what the player does not do, and how to get it instead.
    expect(text).toContain('plays no sound: to hear the composition, render its mix');
  });

  it('refuses a range outside the comp, or backwards, as bad_argument with the valid range', async () => {
    h = await withComps();
    const past = await h.client.callTool({ name: 'preview_player', arguments: { to: 50 } });
    expect(past.isError).toBe(true);
    expect(body(past)).toMatchObject({ code: 'bad_argument', remediation: 'Pass a frame from 0 to 49.' });
    const backwards = await h.client.callTool({ name: 'preview_player', arguments: { from: 9, to: 3 } });
    expect(body(backwards)).toMatchObject({ code: 'bad_argument' });
  });

  it('names doc_inspect when the comp does not exist', async () => {
    h = await withComps();
    const r = await h.client.callTool({ name: 'preview_player', arguments: { comp: 'Nope' } });
    expect(body(r)).toMatchObject({ code: 'not_found', remediation: expect.stringContaining('doc_inspect') });
  });
});

describe('player_frame', () => {
  it('renders frame N at comp time N / fps, with its timecode', async () => {
    h = await withComps();
    const r = await h.client.callTool({ name: 'player_frame', arguments: { comp: 'Other', frame: 42 % 30 } });
    expect(r.isError).toBeFalsy();
    expect((r.content as { type: string }[])[0]!.type).toBe('image');
    expect(body(r)).toMatchObject({ time: 12 / 30, frameRate: 30, timecode: '00:00:00:12' });
    const main = await h.client.callTool({ name: 'player_frame', arguments: { frame: 42, max_side: 64 } });
    expect(body(main)).toMatchObject({
      comp: { id: expect.any(String) },
      time: 42 / 25,
      timecode: '00:00:01:17',
    });
  });

  it('refuses a frame past the end', async () => {
    h = await withComps();
    const r = await h.client.callTool({ name: 'player_frame', arguments: { frame: 50 } });
    expect(body(r)).toMatchObject({
      code: 'bad_argument',
      message: expect.stringContaining('frames 0 to 49'),
    });
  });
});

describe('ui://effectcraft/player', () => {
  it('is listed as an MCP Apps HTML resource', async () => {
    h = await harness();
    const { resources } = await h.client.listResources();
    expect(resources.find((r) => r.uri === 'ui://effectcraft/player')).toMatchObject({
      mimeType: 'text/html;profile=mcp-app',
      _meta: { ui: { prefersBorder: true } },
    });
  });
});
