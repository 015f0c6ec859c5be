/// <reference lib="dom" />
/**
 * A retimed layer's bar in the Timeline: where its source has run out is drawn hatched, and a mark says its
 * speed, reverse, loop or freeze. A real app and Chromium; a screenshot of the timeline in test-output/.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
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
});
