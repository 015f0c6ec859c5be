/**
 * Studio tests need a real browser: Debian's chromium driven by playwright-core. Where it is missing those tests
 * skip with this reason, so `npm test` passes on a machine without it; CI installs chromium and sets
 * EFFECTCRAFT_REQUIRE_CHROMIUM=1, which turns a missing browser into a failure instead of a skip.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, describe, it } from 'vitest';
import { findBrowser, HEADLESS_ARGS } from '../../src/studio/server/headless-browser.js';

// The same lookup as `app --studio-headless`: $EFFECTCRAFT_CHROMIUM, else chromium or Chrome on PATH.
const found = await findBrowser(process.env.PATH ?? '', process.env.EFFECTCRAFT_CHROMIUM || undefined);
export const chromiumPath = found.found ? found.path : null;

if (!chromiumPath && process.env.EFFECTCRAFT_REQUIRE_CHROMIUM === '1') {
  throw new Error(
    'EFFECTCRAFT_REQUIRE_CHROMIUM=1 but chromium is not on PATH: install it (apt-get install chromium).',
  );
}

export const describeWithChromium = describe.skipIf(!chromiumPath);
export const itWithChromium = it.skipIf(!chromiumPath);

/** The flags the app's own headless studio uses: a browser on a closed, headless CI machine needs them. */
export const CHROMIUM_ARGS = HEADLESS_ARGS;

let shared: Promise<Browser> | undefined;

/** One headless Chromium per test file, closed after it. */
export function browser(): Promise<Browser> {
  shared ??= import('playwright-core').then(({ chromium }) =>
    chromium.launch({ executablePath: chromiumPath!, headless: true, args: CHROMIUM_ARGS }),
  );
  return shared;
}

afterAll(async () => {
  if (shared) await (await shared).close();
  shared = undefined;
});

/** Opens a studio link in a new browser context (its own cookies) and waits until the page is live. */
export async function openStudio(link: string, viewport = { width: 1600, height: 1000 }): Promise<Page> {
  const context = await (await browser()).newContext({ viewport });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  (page as Page & { studioErrors?: string[] }).studioErrors = errors;
  await page.goto(link);
  await page.waitForSelector('[data-panel="Viewer"] canvas[data-revision]');
  return page;
}

/** Another tab of the same browser profile (same cookie), as a person opening the studio twice. */
export async function openAnotherTab(page: Page, base: string): Promise<Page> {
  const tab = await page.context().newPage();
  await tab.goto(base + '/');
  await tab.waitForSelector('[data-panel="Viewer"] canvas[data-revision]');
  return tab;
}
