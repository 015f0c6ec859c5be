/// <reference lib="dom" />
/**
 * The studio end to end, three real processes: `effectcraft-cli app`, an agent on `effectcraft-cli mcp --bridge`
 * (the official MCP client over stdio), and Chromium showing the studio page (playwright-core) as a person's
 * browser. The agent's edits reach the page; the person's edits reach the agent; the agent's UI tools act on the
 * page.
 */
import { readdir } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { expect, it } from 'vitest';
import { describeWithChromium, openAnotherTab, openStudio } from '../helpers/chromium.js';
import { tempDir } from '../helpers/tmp.js';
import { appAndClient, call, run, type AppProcess } from './bridge-helpers.js';

type Client = Awaited<ReturnType<typeof appAndClient>>['client'];

/** The one-time studio link the app printed. */
function studioLink(app: AppProcess): string {
  const m = /studio: (http:\/\/\S+)/.exec(app.stderr);
  if (!m) throw new Error(`no studio link in: ${app.stderr}`);
  return m[1]!;
}

async function startWithPage(setup: (client: Client) => Promise<void>) {
  const dir = await tempDir();
  const started = await appAndClient(dir);
  await setup(started.client);
  const page = await openStudio(studioLink(started.app));
  return { ...started, dir, page, base: new URL(studioLink(started.app)).origin };
}

async function newComp(client: Client, extra: Record<string, unknown> = {}) {
  const r = await run(client, 'comp.new', {
    name: 'Main',
    width: 640,
    height: 360,
    frameRate: 10,
    duration: 1,
    ...extra,
  });
  expect(r.isError).toBe(false);
}

/** A layer as doc_inspect shows it (static transform values are plain numbers). */
interface InspectedLayer {
  name: string;
  transform: { opacity: number; rotation: number };
}

async function layerOf(client: Client, name: string): Promise<InspectedLayer> {
  const doc = (await call(client, 'doc_inspect', {})).body as {
    activeComposition: { layers: InspectedLayer[] };
  };
  const layer = doc.activeComposition.layers.find((l) => l.name === name);
  if (!layer) throw new Error(`no layer ${name}`);
  return layer;
}

/** The viewer canvas's pixels (read in the page). */
function viewerPixels(page: Page): Promise<{ width: number; height: number; data: number[] }> {
  return page.evaluate(() => {
    const c = document.querySelector('[data-panel="Viewer"] canvas[data-revision]') as HTMLCanvasElement;
    const d = c.getContext('2d')!.getImageData(0, 0, c.width, c.height);
    return { width: c.width, height: c.height, data: Array.from(d.data) };
  });
}

/** Waits until the viewer shows a revision above `above`. */
async function viewerPast(page: Page, above: number): Promise<number> {
  await page.waitForFunction(
    (above) =>
      Number(
        document.querySelector('[data-panel="Viewer"] canvas[data-revision]')?.getAttribute('data-revision'),
      ) > above,
    above,
  );
  return Number(
    await page.locator('[data-panel="Viewer"] canvas[data-revision]').getAttribute('data-revision'),
  );
}

const revisionOf = async (page: Page) =>
  Number(await page.locator('[data-panel="Viewer"] canvas[data-revision]').getAttribute('data-revision'));

const imageOf = (content: unknown[]) =>
  content.find((c) => (c as { type: string }).type === 'image') as
    { data: string; mimeType: string } | undefined;

describeWithChromium('the studio with an agent and a person', () => {
  it("shows the agent's new text layer in the layers panel and in the viewer, where the text is", async () => {
    const { client, page } = await startWithPage(async (client) => {
      await newComp(client);
      await run(client, 'layer.addSolid', { color: '#203040', name: 'Background' });
    });
    const rev = await revisionOf(page);
    const before = await viewerPixels(page);
    const added = await run(client, 'layer.addText', {
      text: 'HELLO',
      name: 'Greeting',
      fontSize: 120,
      fill: '#ffffff',
    });
    expect(added.isError).toBe(false);
    await viewerPast(page, rev);
    await expect.poll(() => page.locator('[data-panel="Layers"]').innerText()).toContain('Greeting');
    const after = await viewerPixels(page);
    expect([after.width, after.height]).toEqual([before.width, before.height]);
    // The text is centred: the middle of the frame changed, a corner did not.
    const changedIn = (x0: number, y0: number, x1: number, y1: number) => {
      let n = 0;
      for (let y = Math.floor(y0 * after.height); y < y1 * after.height; y++)
        for (let x = Math.floor(x0 * after.width); x < x1 * after.width; x++) {
          const i = (y * after.width + x) * 4;
          if (Math.abs(after.data[i]! - before.data[i]!) > 40) n++;
        }
      return n;
    };
    expect(changedIn(0.3, 0.35, 0.7, 0.65)).toBeGreaterThan(200);
    expect(changedIn(0, 0, 0.1, 0.1)).toBe(0);
  });

  it("makes a person's drag of the opacity slider one edit the agent sees and undoes in one step", async () => {
    const { client, page } = await startWithPage(async (client) => {
      await newComp(client);
      await run(client, 'layer.addSolid', { color: '#e94560', name: 'Box', width: 200, height: 120 });
    });
    await page.locator('[data-panel="Layers"]').getByText('Box', { exact: true }).click();
    const slider = page.locator('[data-control="Properties/Transform/Opacity"]').first();
    await slider.waitFor();
    const box = (await slider.boundingBox())!;
    const x = box.x + box.width / 2;
    const y = box.y + box.height / 2;
    await page.mouse.move(x, y);
    await page.mouse.down();
    for (let i = 1; i <= 12; i++) await page.mouse.move(x - i * 5, y);
    await page.mouse.up();
    await expect.poll(async () => (await layerOf(client, 'Box')).transform.opacity).toBeLessThan(100);
    const dragged = (await layerOf(client, 'Box')).transform.opacity;
    expect(dragged).toBeGreaterThanOrEqual(0);
    expect((await run(client, 'edit.undo')).isError).toBe(false);
    expect((await layerOf(client, 'Box')).transform.opacity).toBe(100);
    // The page follows the undo.
    await expect.poll(() => slider.getAttribute('aria-valuenow')).toBe('100');
  });

  it("starts a render with the agent's ui_click on the Render button, and its progress bar reaches 100 %", async () => {
    const { client, page, dir } = await startWithPage(async (client) => {
      await newComp(client, { width: 64, height: 64 });
      await run(client, 'layer.addSolid', { color: '#33aa55' });
    });
    expect(
      (await run(client, 'renderQueue.add', { comp: 'Main', output: `${dir}/f_[#####].png` })).isError,
    ).toBe(false);
    const button = page.getByRole('button', { name: 'Render', exact: true });
    await button.waitFor();
    const box = (await button.boundingBox())!;
    const click = await call(client, 'ui_click', { x: box.x + box.width / 2, y: box.y + box.height / 2 });
    expect(click.isError).toBe(false);
    expect(click.body).toMatchObject({ hit: { role: 'button', label: 'Render' } });
    const bar = page.locator('[role="progressbar"][data-item]').first();
    await expect.poll(() => bar.getAttribute('aria-valuenow'), { timeout: 20_000 }).toBe('100');
    expect((await readdir(dir)).filter((f) => f.endsWith('.png'))).toHaveLength(10);
  });

  it('returns a PNG of the studio for control {action: "screenshot"}', async () => {
    const { client } = await startWithPage(async (client) => newComp(client));
    const shot = await call(client, 'control', { action: 'screenshot' });
    expect(shot.isError).toBe(false);
    const image = imageOf(shot.content);
    expect(image?.mimeType).toBe('image/png');
    const meta = await sharp(Buffer.from(image!.data, 'base64')).metadata();
    expect(meta.format).toBe('png');
    expect(meta.width).toBeGreaterThanOrEqual(1000);
  });

  it('sets a control path with ui_set, and the agent reads the new value', async () => {
    const { client, page } = await startWithPage(async (client) => {
      await newComp(client);
      await run(client, 'layer.addSolid', { color: '#e94560', name: 'Box' });
    });
    expect((await call(client, 'ui_set', { control: 'Layers/selected', value: 'Box' })).isError).toBe(false);
    const set = await call(client, 'ui_set', { control: 'Properties/Transform/Opacity', value: 40 });
    expect(set).toMatchObject({
      isError: false,
      body: { control: 'Properties/Transform/Opacity', value: 40 },
    });
    expect((await layerOf(client, 'Box')).transform.opacity).toBe(40);
    // The page ran the command, but the edit is the agent's: the Activity panel says who, and through which page.
    const newest = page.locator('.activity-list li.activity').first();
    await expect
      .poll(() => newest.getAttribute('aria-label'))
      .toMatch(/^agent .*\(through studio page \d+\): Set Property Value ok/);
    const unknown = await call(client, 'ui_set', { control: 'Properties/Nope', value: 1 });
    expect(unknown).toMatchObject({ isError: true, body: { code: 'not_found' } });
    expect(JSON.stringify(unknown.body)).toContain('Properties/Transform/Opacity');
    await expect
      .poll(() =>
        page.locator('[data-control="Properties/Transform/Opacity"]').first().getAttribute('aria-valuenow'),
      )
      .toBe('40');
  });

  it("shows each of two pages the other's edits", async () => {
    const { client, page, base } = await startWithPage(async (client) => {
      await newComp(client);
      await run(client, 'layer.addSolid', { color: '#e94560', name: 'Box' });
    });
    const other = await openAnotherTab(page, base);
    // A person renames the layer in the second page: double-click, type, Enter.
    await other.locator('[data-panel="Layers"]').getByText('Box', { exact: true }).dblclick();
    await other.keyboard.press('Control+A');
    await other.keyboard.type('Renamed in page two');
    await other.keyboard.press('Enter');
    await expect
      .poll(() => page.locator('[data-panel="Layers"]').innerText())
      .toContain('Renamed in page two');
    expect((await layerOf(client, 'Renamed in page two')).name).toBe('Renamed in page two');
    // And the first page's edit reaches the second.
    await page.locator('[data-panel="Layers"]').getByText('Renamed in page two', { exact: true }).click();
    expect(
      (await call(client, 'ui_set', { control: 'Properties/Transform/Rotation', value: 30 })).isError,
    ).toBe(false);
    await expect
      .poll(() =>
        other.locator('[data-control="Properties/Transform/Rotation"]').first().getAttribute('aria-valuenow'),
      )
      .toBe('30');
  });

  it('refuses a reused link in a second browser, and a page of another origin on the live channel', async () => {
    const { app, page, base } = await startWithPage(async (client) => newComp(client));
    const link = studioLink(app);
    const second = await (await page.context().browser()!.newContext()).newPage();
    const res = await second.goto(link);
    expect(res?.status()).toBe(401);
    // A page of another origin in the signed-in person's browser cannot open the live channel.
    const foreign = await page.context().newPage();
    await foreign.goto('data:text/html,<p>another site</p>');
    const refused = await foreign.evaluate(
      (url) =>
        new Promise<string>((resolve) => {
          const ws = new WebSocket(url);
          ws.onopen = () => resolve('open');
          ws.onerror = () => resolve('refused');
        }),
      base.replace('http', 'ws') + '/studio/live',
    );
    expect(refused).toBe('refused');
  });
});
