/// <reference lib="dom" />
/**
 * The studio's viewer and footage whose file goes away and comes back (a drive unplugged, a file being
 * re-exported): the placeholder and its warning while the file is gone, and the picture again once it is
 * back, with no edit to the document. A real app, a real Chromium, real files.
 */
import { copyFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithChromium, openStudio } from '../helpers/chromium.js';
import type { ControlClient } from '../helpers/studio-browser.js';
import { StudioApp } from '../helpers/studio-browser.js';
import { tempDir } from '../helpers/tmp.js';

let app: StudioApp;
let control: ControlClient;
let page: Page;
let still: string;

const exec = async <T>(id: string, params: Record<string, unknown> = {}) =>
  (await control.call<{ result: T }>('engine.execute', { id, params })).result;
const warning = () => page.locator('[data-panel="Viewer"] .warning');

describeWithChromium('footage that goes away and comes back, in the studio', () => {
  beforeAll(async () => {
    const dir = await tempDir();
    ({ app, control } = await StudioApp.start(dir));
    still = join(dir, 'plate.png');
    await sharp({ create: { width: 64, height: 36, channels: 3, background: '#ff0000' } })
      .png()
      .toFile(still);
    await exec('comp.new', { name: 'Shot', width: 64, height: 36, frameRate: 10, duration: 1 });
    const { id } = await exec<{ id: string }>('file.import', { path: still });
    await exec('layer.addFootage', { footage: id });
    page = await openStudio(app.link);
  });

  afterAll(async () => {
    control?.close();
    await app?.stop();
  });

  it('shows the placeholder with its warning while the file is gone, and the picture once it is back', async () => {
    const aside = `${still}.aside`;
    await rename(still, aside);
    // Another frame is asked for: it is drawn without the file.
    await control.call('ui.set', { control: 'Transport/frame', value: 5 });
    await expect.poll(() => warning().count(), { timeout: 10_000 }).toBe(1);
    expect(await warning().textContent()).toMatch(/cannot be read/);
    // Put back: no edit, no seek; the viewer asks again on its own.
    await copyFile(aside, still);
    await expect.poll(() => warning().count(), { timeout: 10_000 }).toBe(0);
  });
});
