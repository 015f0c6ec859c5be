/**
 * The preview player (MCP Apps) as a host shows it: the built CLI's MCP server (stdio, and --http with a token),
 * the official client declaring the io.modelcontextprotocol/ui extension, the ui:// resource read and loaded in
 * Debian's Chromium under the MCP Apps default CSP, inside a host page built on the ext-apps AppBridge that
 * proxies the view's tool calls to the real server through the client. Dragging the slider to frame 42 shows
 * frame 42: the comp's white bar sits at x = 40 + frame, read from the PNG the view shows. Both protocol eras.
 */
import { mkdir } from 'node:fs/promises';
import { beforeAll, describe, expect, it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { isToolVisibilityAppOnly } from '@modelcontextprotocol/ext-apps/app-bridge';
import { describeWithChromium } from '../helpers/chromium.js';
import {
  PROJECT,
  barCentre,
  buildHostPage,
  callPlayer,
  connect,
  showPlayer,
  shownPng,
} from './player-helpers.js';

let hostPage = '';

describeWithChromium('preview player (MCP Apps) in a host', () => {
  beforeAll(async () => {
    hostPage = await buildHostPage();
  });

  it.each([
    ['stdio', 'legacy'],
    ['stdio', 'modern'],
    ['http', 'legacy'],
    ['http', 'modern'],
  ] as const)('over %s (%s era): scrubbing to frame 42 shows frame 42', async (transport, era) => {
    const client = await connect(transport, era, true);
    expect(client.getServerCapabilities()?.extensions).toHaveProperty(['io.modelcontextprotocol/ui']);
    const called = await callPlayer(client);

    // What the host gives its model: the app-only tool is listed for the host, with visibility ["app"], and
    // filtered out of the model's tools as the spec says.
    const frameTool = called.tools.find((t) => t.name === 'player_frame');
    expect(frameTool?._meta).toMatchObject({ ui: { visibility: ['app'] } });
    const forModel = called.tools.filter((t) => !isToolVisibilityAppOnly(t)).map((t) => t.name);
    expect(forModel).toContain('preview_player');
    expect(forModel).not.toContain('player_frame');
    expect(called.result.structuredContent).toMatchObject({ frames: 120, from: 0, to: 119, frameRate: 30 });

    const { page, view, calls, problems, sandbox } = await showPlayer(hostPage, client, called);
    await view.locator('img[data-frame="0"]').waitFor();

    // Drag the slider: past the target, back, and release near it; then the arrow keys to land exactly.
    const slider = view.locator('[data-role="scrub"]');
    const box = (await slider.boundingBox())!;
    const xAt = (f: number) => box.x + 8 + ((box.width - 16) * f) / 119;
    const y = box.y + box.height / 2;
    await page.mouse.move(xAt(0), y);
    await page.mouse.down();
    for (const f of [10, 30, 60, 90, 70, 50, 42]) await page.mouse.move(xAt(f), y, { steps: 4 });
    await page.mouse.up();
    let value = Number(await slider.inputValue());
    while (value !== 42) {
      await slider.press(value < 42 ? 'ArrowRight' : 'ArrowLeft');
      value = Number(await slider.inputValue());
    }

    const shown = view.locator('img[data-frame="42"]');
    await shown.waitFor();
    await expect.poll(() => view.locator('.frame[data-loading]').count()).toBe(0);
    expect(await view.locator('[data-role="frame"]').textContent()).toBe('42');
    expect(await view.locator('[data-role="timecode"]').textContent()).toBe('00:00:01:12');
    expect(await barCentre(await shownPng(shown))).toBe(82);

    // Frames came from the app-only tool, through the host.
    expect(calls.every((c) => c.name === 'player_frame')).toBe(true);
    expect(calls.some((c) => c.arguments?.frame === 42)).toBe(true);
    // The view loaded nothing but itself, and broke no CSP rule.
    expect(sandbox.requested).toEqual(['/view.html']);
    expect(problems).toEqual([]);

    await mkdir('test-output', { recursive: true });
    await page.screenshot({ path: `test-output/mcp-player-${transport}-${era}.png` });
    await page.context().close();
  });

  it('steps with the buttons, plays and pauses, and the frame at rest matches the readout', async () => {
    const client = await connect('stdio', 'legacy', true);
    const { page, view, problems } = await showPlayer(hostPage, client, await callPlayer(client));
    await view.locator('img[data-frame="0"]').waitFor();
    await view.locator('[data-role="forward"]').click();
    await view.locator('[data-role="forward"]').click();
    await view.locator('img[data-frame="2"]').waitFor();
    await view.locator('[data-role="back"]').click();
    await view.locator('img[data-frame="1"]').waitFor();
    expect(await view.locator('[data-role="timecode"]').textContent()).toBe('00:00:00:01');

    await view.locator('[data-role="play"]').click();
    await expect
      .poll(async () => Number(await view.locator('img').getAttribute('data-frame')))
      .toBeGreaterThan(5);
    await view.locator('[data-role="play"]').click();
    expect(await view.locator('[data-role="play"]').getAttribute('aria-pressed')).toBe('false');
    await expect.poll(() => view.locator('.frame[data-loading]').count()).toBe(0);
    const frame = Number(await view.locator('[data-role="frame"]').textContent());
    const shown = view.locator('img');
    expect(Number(await shown.getAttribute('data-frame'))).toBe(frame);
    expect(await barCentre(await shownPng(shown))).toBe(40 + frame);
    expect(problems).toEqual([]);
    await page.context().close();
  });

  it('drops a reply that comes back after a newer frame is on screen', async () => {
    const client = await connect('stdio', 'modern', true);
    const called = await callPlayer(client);
    // The host holds the answer for frame 60 until frame 42, asked for after it, is on screen.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const { page, view, problems } = await showPlayer(hostPage, client, called, async (params, forward) => {
      const answer = await forward();
      if (params.arguments?.frame === 60) await held;
      return answer;
    });
    await view.locator('img[data-frame="0"]').waitFor();
    const slider = view.locator('[data-role="scrub"]');
    await slider.fill('60');
    await slider.fill('42');
    await view.locator('img[data-frame="42"]').waitFor();
    release();
    await view.locator('[data-dropped="1"]').waitFor();
    // The late frame 60 was dropped: 42 stays on screen.
    const shown = view.locator('img');
    expect(await shown.getAttribute('data-frame')).toBe('42');
    expect(await barCentre(await shownPng(shown))).toBe(82);
    expect(problems).toEqual([]);
    await page.context().close();
  });
});

describe.each(['legacy', 'modern'] as const)('preview player without MCP Apps (%s era)', (era) => {
  it('gives a client that shows no apps a useful text result, and no app-only tool', async () => {
    const client = await connect('stdio', era, false);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toContain('preview_player');
    expect(tools.map((t) => t.name)).not.toContain('player_frame');
    await client.callTool({ name: 'command_batch', arguments: { steps: PROJECT } });
    const r = (await client.callTool({
      name: 'preview_player',
      arguments: { from: 30, to: 89 },
    })) as CallToolResult;
    expect(r.isError).toBeFalsy();
    const text = r.content.find((c) => c.type === 'text')?.text ?? '';
    expect(text).toContain('"Player test"');
    expect(text).toContain('320x180, 30 fps');
    expect(text).toContain('frames 30 to 89 (00:00:01:00 to 00:00:02:29)');
    expect(text).toMatch(/render_preview \{comp: "[^"]+", time: frame \/ 30/);
  });
});
