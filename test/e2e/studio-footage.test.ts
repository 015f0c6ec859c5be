/// <reference lib="dom" />
/**
 * The studio's viewer and footage whose file goes away and comes back (a drive unplugged, a file being
 * re-exported): the placeholder and its warning while the file is gone, and the picture again once it is
 * back, with no edit to the document; a clip written over at another size is marked changed, with Relink.
 * A real app, a real Chromium, real files.
 */
import { copyFile, mkdir, rename } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithChromium, itWithChromium, openStudio } from '../helpers/chromium.js';
import { tone } from '../helpers/audio.js';
import { hasFfmpeg } from '../helpers/ffmpeg.js';
import { numberedClip } from '../helpers/media.js';
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
    // In plain words, with what to do; the compositor's own words in the tooltip.
    await expect.poll(() => warning().textContent(), { timeout: 10_000 }).toMatch(/is missing.*Relink/);
    expect(await warning().getAttribute('title')).toMatch(/cannot be read/);
    // Put back: no edit, no seek; the viewer asks again on its own.
    await copyFile(aside, still);
    await expect.poll(() => warning().count(), { timeout: 10_000 }).toBe(0);
  });

  (hasFfmpeg ? itWithChromium : it.skip)(
    'marks a clip written over at another size as changed, says what to do, and relinks it',
    async () => {
      const dir = await tempDir();
      const clip = await numberedClip(dir, 'h264', '10', 10, { size: '64x48' });
      await exec('comp.new', { name: 'Clip comp', width: 64, height: 48, frameRate: 10, duration: 1 });
      const { id } = await exec<{ id: string }>('file.import', { path: clip });
      const name = 'clip-h264-10';
      await exec('layer.addFootage', { footage: id });
      const row = page.getByRole('treeitem', { name: new RegExp(`^Footage ${name}`) });
      await expect.poll(() => row.count(), { timeout: 10_000 }).toBe(1);
      await expect.poll(() => row.getAttribute('data-footage-state'), { timeout: 10_000 }).toBe('ok');
      await expect.poll(() => warning().count(), { timeout: 10_000 }).toBe(0);

      // Re-encoded under the same name at another size: no edit to the document.
      expect(await numberedClip(dir, 'h264', '10', 10, { size: '32x24' })).toBe(clip);
      await expect.poll(() => row.getAttribute('data-footage-state'), { timeout: 10_000 }).toBe('changed');
      expect(await row.getAttribute('title')).toMatch(/it was 64x48.*it is now 32x24/);
      await expect
        .poll(() => warning().textContent(), { timeout: 10_000 })
        .toMatch(/changed on disk.*Relink beside it in the Project panel/);

      // Relink to the same path reads the file again: the mark and the placeholder go.
      await page.getByRole('button', { name: `Relink ${name}` }).click();
      await page.getByRole('button', { name: `Apply relink of ${name}` }).click();
      await expect.poll(() => row.getAttribute('data-footage-state'), { timeout: 10_000 }).toBe('ok');
      await expect.poll(() => warning().count(), { timeout: 10_000 }).toBe(0);
      const view = await control.call<{ doc: { items: Array<{ id: string; width?: number }> } }>(
        'session.view',
      );
      expect(view.doc.items.find((i) => i.id === id)?.width).toBe(32);
    },
  );

  (hasFfmpeg ? itWithChromium : it.skip)(
    'says a missing sound file loses its sound, not that a placeholder is shown for it',
    async () => {
      const dir = await tempDir();
      const music = await tone(dir, { freq: 220, seconds: 2 });
      await exec('comp.new', { name: 'Music comp', width: 64, height: 36, frameRate: 10, duration: 1 });
      const { id } = await exec<{ id: string }>('file.import', { path: music });
      await exec('layer.addFootage', { footage: id });
      await rename(music, `${music}.aside`);
      await control.call('ui.set', { control: 'Transport/frame', value: 3 });
      // A sound has no picture: nothing stands in for it in the viewer, its sound is what is lost.
      await expect
        .poll(() => warning().textContent(), { timeout: 10_000 })
        .toMatch(/is missing, so its sound is left out: click Relink beside it/);
      expect(await warning().textContent()).not.toMatch(/placeholder/);
    },
  );

  (hasFfmpeg ? itWithChromium : it.skip)(
    'marks a music bed re-exported shorter as changed, with Relink, as it marks a clip',
    async () => {
      const dir = await tempDir();
      const bed = await tone(dir, { freq: 330, seconds: 2 });
      await exec('comp.new', { name: 'Bed comp', width: 64, height: 36, frameRate: 10, duration: 1 });
      const { id } = await exec<{ id: string }>('file.import', { path: bed, name: 'Bed' });
      await exec('layer.addFootage', { footage: id });
      const row = page.getByRole('treeitem', { name: /^Footage Bed/ });
      await expect.poll(() => row.getAttribute('data-footage-state'), { timeout: 10_000 }).toBe('ok');
      // Re-exported under the same name at 1 s: the studio's sound leaves it out and says to relink it.
      const other = join(dir, 'short');
      await mkdir(other);
      await rename(await tone(other, { freq: 330, seconds: 1 }), bed);
      await expect.poll(() => row.getAttribute('data-footage-state'), { timeout: 10_000 }).toBe('changed');
      expect(await row.getAttribute('title')).toMatch(/its sound lasted 2\.00 s; it now lasts 1\.00 s/);
      await page.getByRole('button', { name: 'Relink Bed' }).click();
      await page.getByRole('button', { name: 'Apply relink of Bed' }).click();
      await expect.poll(() => row.getAttribute('data-footage-state'), { timeout: 10_000 }).toBe('ok');
    },
  );

  (hasFfmpeg ? itWithChromium : it.skip)(
    'makes a composition from a clip, and fits a layer to its composition, by clicks',
    async () => {
      const dir = await tempDir();
      const clip = await numberedClip(dir, 'h264', '25', 25, { size: '80x48' });
      await exec('file.import', { path: clip, name: 'Wide clip' });
      // No button for a sound: it has no size to make a composition of.
      const music = await tone(dir, { freq: 440, seconds: 1 });
      await exec('file.import', { path: music, name: 'Tune' });
      await expect
        .poll(() => page.getByRole('button', { name: 'New composition from Tune' }).count(), {
          timeout: 10_000,
        })
        .toBe(0);
      await page.getByRole('button', { name: 'New composition from Wide clip' }).click();
      type View = { doc: { activeComp: string; items: Array<Record<string, unknown>> } };
      const made = async () => {
        const { doc } = await control.call<View>('session.view');
        return doc.items.find((i) => i.id === doc.activeComp) as {
          name: string;
          width: number;
          height: number;
          frameRate: number;
          duration: number;
          layers: Array<{ name: string; fit?: string; transform: { scale: { value: number[] } } }>;
        };
      };
      await expect.poll(async () => (await made()).name, { timeout: 10_000 }).toBe('Wide clip');
      expect(await made()).toMatchObject({ width: 80, height: 48, frameRate: 25, duration: 1 });
      expect((await made()).layers.map((l) => l.name)).toEqual(['Wide clip']);

      // Made square, its clip then fitted by the Properties panel's Fit to comp: cover fills 48x48 by height.
      await exec('comp.setSettings', { width: 48, height: 48 });
      await control.call('ui.set', { control: 'Layers/selected', value: 'Wide clip' });
      const fit = page.locator('[data-panel="Properties"]').getByLabel('Fit to composition');
      await expect.poll(() => fit.count(), { timeout: 10_000 }).toBe(1);
      await fit.selectOption('cover');
      await expect.poll(async () => (await made()).layers[0]!.fit, { timeout: 10_000 }).toBe('cover');
      expect((await made()).layers[0]!.transform.scale.value).toEqual([100, 100]);
      await fit.selectOption('contain');
      await expect
        .poll(async () => (await made()).layers[0]!.transform.scale.value, { timeout: 10_000 })
        .toEqual([60, 60]);
    },
  );
});
