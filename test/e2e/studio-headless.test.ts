/**
 * `effectcraft-cli app --studio-headless`: the app opens its studio in a headless Chromium it owns, so an agent's
 * UI tools have a page to drive with no person present; and without a browser, every UI tool and `capabilities`
 * say so with the remedy. Real processes: the app, `mcp --bridge` with the official client, Chromium.
 */
import { execFileSync } from 'node:child_process';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { describeWithChromium } from '../helpers/chromium.js';
import { processExists } from '../helpers/spawn.js';
import { tempDir } from '../helpers/tmp.js';
import { appAndClient, call } from './bridge-helpers.js';

/** PIDs of every process below `pid` (children, grandchildren...). */
function descendants(pid: number): number[] {
  let out = '';
  try {
    out = execFileSync('ps', ['-e', '-o', 'pid=,ppid='], { encoding: 'utf8' });
  } catch {
    return [];
  }
  const rows = out
    .trim()
    .split('\n')
    .map((l) => l.trim().split(/\s+/).map(Number) as [number, number]);
  const found: number[] = [];
  const walk = (parent: number) => {
    for (const [p, pp] of rows) {
      if (pp !== parent) continue;
      found.push(p);
      walk(p);
    }
  };
  walk(pid);
  return found;
}

type Image = { type: string; data: string; mimeType: string };

describeWithChromium('app --studio-headless', () => {
  it('gives the UI tools a page of its own: screenshots as images, a viewport to set, and a browser that ends with the app', async () => {
    const dir = await tempDir();
    const { client, app } = await appAndClient(dir, [
      '--studio-headless',
      '--project',
      'fixtures/sample/sample.ecproj',
    ]);
    // The page connects a moment after the app starts listening.
    let caps: {
      tools: Array<{ name: string; available: boolean }>;
      studio: { driving: { headless: boolean } | null };
    };
    for (let i = 0; ; i++) {
      caps = (await call(client, 'capabilities', {})).body as typeof caps;
      if (caps.studio?.driving || i > 100) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(caps.studio.driving).toMatchObject({ headless: true });
    expect(caps.tools.find((t) => t.name === 'ui_click')).toMatchObject({ available: true });

    const shot = await call(client, 'control', { action: 'screenshot' });
    expect(shot.isError, JSON.stringify(shot.body)).toBe(false);
    const image = shot.content.find((c) => (c as Image).type === 'image') as Image;
    expect(image.mimeType).toBe('image/png');
    const meta = await sharp(Buffer.from(image.data, 'base64')).metadata();
    expect([meta.width, meta.height]).toEqual([1600, 1000]);

    expect(
      (await call(client, 'control', { action: 'setViewport', params: { width: 1280, height: 800 } }))
        .isError,
    ).toBe(false);
    const smaller = await call(client, 'control', { action: 'screenshot' });
    const png = Buffer.from(
      (smaller.content.find((c) => (c as Image).type === 'image') as Image).data,
      'base64',
    );
    expect(await sharp(png).metadata()).toMatchObject({ width: 1280, height: 800 });

    const browserPids = descendants(app.child.pid!);
    expect(browserPids.length).toBeGreaterThan(0);
    app.kill('SIGTERM');
    expect(await app.exited).toBe(0);
    for (let i = 0; i < 50 && browserPids.some(processExists); i++)
      await new Promise((r) => setTimeout(r, 100));
    expect(browserPids.filter(processExists)).toEqual([]);
  });
});

describe('app --studio-headless without a browser', () => {
  it('keeps serving, and every UI tool and capabilities name the remedy', async () => {
    const dir = await tempDir();
    const { client, app } = await appAndClient(dir, ['--studio-headless'], [], {
      EFFECTCRAFT_CHROMIUM: '/nonexistent/chromium',
    });
    const caps = (await call(client, 'capabilities', {})).body as {
      tools: Array<{ name: string; available: boolean; remediation?: string }>;
      studio: { browser: { found: boolean; remediation?: string } };
    };
    expect(caps.studio.browser).toMatchObject({
      found: false,
      remediation: expect.stringContaining('apt-get install chromium'),
    });
    const click = caps.tools.find((t) => t.name === 'ui_click');
    expect(click).toMatchObject({
      available: false,
      remediation: expect.stringContaining('--studio-headless'),
    });
    const r = await call(client, 'ui_click', { x: 10, y: 10 });
    expect(r).toMatchObject({ isError: true, body: { code: 'not_configured' } });
    expect(JSON.stringify(r.body)).toContain('Open the studio URL in a browser');
    expect(app.stderr).toMatch(/--studio-headless: .*apt-get install chromium/);
  }, 30_000);
});
