/// <reference lib="dom" />
/**
 * The studio in small windows: at 1024x640 every transport control is on screen and not covered, and at
 * 800x600 too (the transport wraps or compacts), with a viewer still worth looking at; the Project panel keeps
 * the project's name and file line in sight while its list scrolls. Measured in a real Chromium with
 * elementFromPoint (a control under another panel is not "on screen"); screenshots in test-output/.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithChromium, openAnotherTab, openStudio } from '../helpers/chromium.js';
import { repoRoot } from '../helpers/cli.js';
import type { ControlClient } from '../helpers/studio-browser.js';
import { StudioApp } from '../helpers/studio-browser.js';
import { tempDir } from '../helpers/tmp.js';

let app: StudioApp;
let control: ControlClient;
let first: Page;
const shots = join(repoRoot, 'test-output', 'studio-layout');

const TRANSPORT = [
  'Jump to start',
  'Step back one frame',
  'Play',
  'Step forward one frame',
  'Jump to end',
  'Current time',
  'Current frame',
  'Sound on',
  'Frames per second reached',
].map((label) => `[data-panel="Transport"] [aria-label="${label}"]`);
/** The project's name above its list. */
const PROJECT_NAME = '[data-panel="Project"] .project-meta strong';

/** The elements among `selectors` not wholly in the window, or covered at their centre (by another panel). */
async function hidden(page: Page, selectors: readonly string[]): Promise<string[]> {
  return page.evaluate((selectors) => {
    const out: string[] = [];
    for (const label of selectors) {
      const el = document.querySelector(label);
      const r = el?.getBoundingClientRect();
      const inside =
        !!r && r.width > 0 && r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight;
      const top = r && document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!inside || !top || !(el === top || el!.contains(top) || top.contains(el!))) out.push(label);
    }
    return out;
  }, selectors);
}

describeWithChromium('the studio in a small window', () => {
  beforeAll(async () => {
    ({ app, control } = await StudioApp.start(await tempDir(), [
      '--project',
      join(repoRoot, 'fixtures/sample/sample.ecproj'),
    ]));
    // A project list longer than the panel: it scrolls.
    const { doc } = await control.call<{ doc: { activeComp: string } }>('session.view');
    for (let i = 1; i <= 12; i++)
      await control.call('engine.execute', {
        id: 'comp.new',
        params: { name: `Extra ${i}`, width: 64, height: 36 },
      });
    await control.call('engine.execute', { id: 'comp.setActive', params: { comp: doc.activeComp } });
    first = await openStudio(app.link);
    await mkdir(shots, { recursive: true });
  });

  afterAll(async () => {
    control?.close();
    await app?.stop();
  });

  for (const [width, height, minViewer] of [
    [1024, 640, 380],
    [800, 600, 300],
  ] as const) {
    it(`keeps the transport, the viewer and the project's name usable at ${width}x${height}`, async () => {
      const page = await openAnotherTab(first, new URL(app.link).origin);
      await page.setViewportSize({ width, height });
      await page.waitForTimeout(300);
      await page.screenshot({ path: join(shots, `${width}x${height}.png`) });
      expect(await hidden(page, TRANSPORT)).toEqual([]);
      const viewer = (await page.locator('[data-panel="Viewer"] .viewer-stage').boundingBox())!;
      expect(viewer.width).toBeGreaterThanOrEqual(minViewer);
      expect(viewer.height).toBeGreaterThanOrEqual(200);

      // The project list scrolled to its end: the project's name and file line stay in sight.
      await page
        .locator('[data-panel="Project"] .panel-body')
        .evaluate((body) => body.scrollTo({ top: body.scrollHeight }));
      expect(await hidden(page, [PROJECT_NAME])).toEqual([]);
      await page.screenshot({ path: join(shots, `${width}x${height}-project-scrolled.png`) });
      await page.close();
    });
  }
});
