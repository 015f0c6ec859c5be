/// <reference lib="dom" />
/**
 * An agent's screenshot right after an edit shows the edit: the page waits (bounded) until its viewer has drawn
 * the app's current revision at the playhead, and says so honestly when it could not. Frames are slowed down in
 * the browser (a route that holds them back), as a heavy composition or a long video seek would.
 */
import type { Page, Route } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FRAME_PATH, FrameHeaders } from '../../src/studio/protocol.js';
import { describeWithChromium, openStudio } from '../helpers/chromium.js';
import type { ControlClient } from '../helpers/studio-browser.js';
import { StudioApp } from '../helpers/studio-browser.js';
import { tempDir } from '../helpers/tmp.js';

let app: StudioApp;
let control: ControlClient;
let page: Page;
/** How long each frame request is held back in the browser. */
let frameDelayMs = 0;

interface Shot {
  png: string;
  viewer: { settled: boolean; revision: number; frame: number; note?: string };
}

const exec = <T>(id: string, params: Record<string, unknown> = {}) => control.execute<T>(id, params);

/** The colour at the viewer canvas's centre in a screenshot. */
async function viewerCentre(shot: Shot): Promise<number[]> {
  const box = (await page.locator('[data-panel="Viewer"] canvas').boundingBox())!;
  const { data, info } = await sharp(Buffer.from(shot.png, 'base64'))
    .raw()
    .toBuffer({ resolveWithObject: true });
  const i =
    (Math.round(box.y + box.height / 2) * info.width + Math.round(box.x + box.width / 2)) * info.channels;
  return [data[i]!, data[i + 1]!, data[i + 2]!];
}

describeWithChromium("an agent's screenshot after an edit", () => {
  beforeAll(async () => {
    ({ app, control } = await StudioApp.start(await tempDir()));
    await exec('comp.new', { name: 'Shot', width: 320, height: 180, frameRate: 10, duration: 1 });
    await exec('layer.addSolid', { name: 'Plate', color: '#ff0000', width: 320, height: 180 });
    page = await openStudio(app.link);
    await page.route(`**${FRAME_PATH}?**`, async (route: Route) => {
      if (frameDelayMs) await new Promise((r) => setTimeout(r, frameDelayMs));
      await route.continue().catch(() => undefined);
    });
    await page.locator('[data-panel="Viewer"]').click();
    await control.call('ui.set', { control: 'Layers/selected', value: 'Plate' });
  });

  afterAll(async () => {
    control?.close();
    await app?.stop();
  });

  it('shows the edit just made, at the revision the app has', async () => {
    frameDelayMs = 1500;
    await control.call('ui.set', { control: 'Properties/Solid/Color', value: '#0000ff' });
    const shot = await control.call<Shot>('ui.control', { action: 'screenshot' });
    // The revision of the colour change (the page's live view carries it; the control channel's does not).
    const revision = await page.evaluate(
      ([path, header]) =>
        fetch(`${path}?comp=comp_1&frame=0&scale=0.25`).then((r) => Number(r.headers.get(header))),
      [FRAME_PATH, FrameHeaders.revision] as const,
    );
    expect(shot.viewer).toMatchObject({ settled: true, revision, frame: 0 });
    const [r, g, b] = await viewerCentre(shot);
    expect(b).toBeGreaterThan(200);
    expect(r! + g!).toBeLessThan(60);
  });

  it('waits no longer than its bound, and says what the viewer shows instead', async () => {
    frameDelayMs = 9000;
    await control.call('ui.set', { control: 'Properties/Solid/Color', value: '#00ff00' });
    const started = Date.now();
    const shot = await control.call<Shot>('ui.control', { action: 'screenshot' });
    expect(Date.now() - started).toBeLessThan(8000);
    expect(shot.viewer.settled).toBe(false);
    expect(shot.viewer.note).toMatch(/had not drawn revision \d+ at frame 0 .*shows revision \d+/);
    frameDelayMs = 0;
  });
});
