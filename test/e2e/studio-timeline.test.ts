/// <reference lib="dom" />
/**
 * A retimed layer's bar in the Timeline: where its source has run out is drawn hatched, and a mark says its
 * speed, reverse, loop or freeze; a bar dragged in time lands on whole frames. A real app and Chromium; a
 * screenshot of the timeline in test-output/.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import type { Layer } from '../../src/engine/model.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithChromium, openStudio } from '../helpers/chromium.js';
import { repoRoot } from '../helpers/cli.js';
import type { ControlClient } from '../helpers/studio-browser.js';
import { StudioApp } from '../helpers/studio-browser.js';
import { tempDir } from '../helpers/tmp.js';

let app: StudioApp;
let control: ControlClient;
let page: Page;
let main: string;
let nested: string;

const exec = <T>(id: string, params: Record<string, unknown> = {}) => control.execute<T>(id, params);
const bar = () => page.locator('[data-panel="Timeline"] .layer-bar', { hasText: 'Nested' });

describeWithChromium('a retimed layer in the Timeline', () => {
  beforeAll(async () => {
    ({ app, control } = await StudioApp.start(await tempDir()));
    ({ main, nested } = await control.nestedScene());
    page = await openStudio(app.link);
  });

  afterAll(async () => {
    control?.close();
    await app?.stop();
  });

  it('hatches the part past the end of a sped-up source and marks the speed', async () => {
    expect(await bar().locator('.bar-retime').count()).toBe(0);
    await exec('layer.setTimeMap', { comp: main, layer: nested, speed: 4 });
    await expect.poll(() => bar().locator('.bar-retime').allTextContents()).toEqual(['4×']);
    expect(await bar().getAttribute('aria-valuetext')).toMatch(/4× speed, the source ends at 2\.5 s/);
    // 10 s of source at 4x ends 2.5 s in: the last three quarters of the 10 s bar show nothing.
    const whole = (await bar().boundingBox())!;
    const empty = (await bar().locator('.bar-empty').boundingBox())!;
    expect((empty.x - whole.x) / whole.width).toBeCloseTo(0.25, 1);
    expect((empty.x + empty.width) / (whole.x + whole.width)).toBeCloseTo(1, 1);
    await mkdir(join(repoRoot, 'test-output'), { recursive: true });
    await page
      .locator('[data-panel="Timeline"]')
      .screenshot({ path: join(repoRoot, 'test-output', 'studio-timeline-speed4.png') });
  });

  it('marks reverse, loop and freeze, with nothing hatched while the source loops or holds', async () => {
    await exec('layer.setTimeMap', { comp: main, layer: nested, speed: -2, loop: true });
    await expect.poll(() => bar().locator('.bar-retime').allTextContents()).toEqual(['◀ 2× ⟳']);
    expect(await bar().locator('.bar-empty').count()).toBe(0);
    await exec('layer.setTimeMap', { comp: main, layer: nested, speed: 1, loop: false, freezeAt: 1.5 });
    await expect.poll(() => bar().locator('.bar-retime').allTextContents()).toEqual(['❚❚']);
    expect(await bar().getAttribute('aria-valuetext')).toMatch(/frozen at 1\.5 s of the source/);
    expect(await bar().locator('.bar-empty').count()).toBe(0);
  });

  it('moves a bar by whole frames that the layer is drawn on: its first frame is not lost', async () => {
    // 24 fps, a white layer from frame 1: dragged 7 frames later, it starts at frame 8. Added in floating point
    // (1/24 + 7/24 = 0.33333333333333337) its in point fell just past frame 8's time (0.3333333333333333), and
    // the viewer and renders showed nothing there though its bar began at frame 8.
    const comp = (
      await exec<{ id: string }>('comp.new', {
        name: 'At 24',
        width: 64,
        height: 36,
        frameRate: 24,
        duration: 2,
      })
    ).id;
    const white = (await exec<{ id: string }>('layer.addSolid', { comp, color: '#ffffff', name: 'White' }))
      .id;
    await exec('layer.setTiming', { comp, layer: white, startTime: 1 / 24, inPoint: 1 / 24, outPoint: 2 });
    const whiteBar = page.locator('[data-panel="Timeline"] .layer-bar', { hasText: 'White' });
    await expect.poll(() => whiteBar.getAttribute('aria-valuenow'), { timeout: 10_000 }).toBe('0.042');
    const ruler = (await page.locator('[data-panel="Timeline"] .ruler').boundingBox())!;
    const box = (await whiteBar.boundingBox())!;
    const [x, y] = [box.x + 100, box.y + box.height / 2];
    await page.mouse.move(x, y);
    await page.mouse.down();
    await page.mouse.move(x + (ruler.width / 48) * 7, y, { steps: 6 });
    await page.mouse.up();
    const inPoint = async () => {
      const view = await control.call<{ doc: { items: Array<{ id: string; layers?: Layer[] }> } }>(
        'session.view',
      );
      return view.doc.items.find((i) => i.id === comp)?.layers?.find((l) => l.id === white)?.inPoint;
    };
    await expect.poll(inPoint, { timeout: 10_000 }).not.toBe(1 / 24);
    expect(await inPoint()).toBe(8 / 24);
    // The viewer shows it at frame 8.
    await control.call('ui.set', { control: 'Transport/frame', value: 8 });
    const centre = await page.evaluate(() => {
      const c = document.querySelector<HTMLCanvasElement>('[data-panel="Viewer"] canvas[data-revision]')!;
      return [...c.getContext('2d')!.getImageData(c.width >> 1, c.height >> 1, 1, 1).data];
    });
    expect(centre).toEqual([255, 255, 255, 255]);
  });
});
