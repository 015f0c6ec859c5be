/**
 * `effectcraft-cli app --studio-headless`: the app opens its own studio page in a headless Chromium it starts
 * and owns (playwright-core, which downloads nothing, driving a Chromium or Chrome found on the machine), so the
 * UI tools have a page to drive when no person has one open. The browser ends with the app.
 */
import type { Browser, Page } from 'playwright-core';
import { findExecutable } from '../../node-io/search-path.js';

export type BrowserFound =
  { found: true; path: string } | { found: false; reason: string; remediation: string };

/** Names tried on the search path, in order, after $EFFECTCRAFT_CHROMIUM. */
const BROWSER_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable', 'chrome'];

export const BROWSER_REMEDY =
  'Install Chromium (Debian/Ubuntu: apt-get install chromium) or Google Chrome, or set EFFECTCRAFT_CHROMIUM to its executable, then restart the app.';

/** Finds a browser: $EFFECTCRAFT_CHROMIUM when set (it must exist), else the first name on the search path. */
export async function findBrowser(searchPath: string, explicit?: string): Promise<BrowserFound> {
  if (explicit) {
    const found = explicit.includes('/')
      ? await findExecutable(explicit.split('/').pop()!, explicit.slice(0, explicit.lastIndexOf('/')) || '/')
      : await findExecutable(explicit, searchPath);
    return found
      ? { found: true, path: found }
      : {
          found: false,
          reason: `EFFECTCRAFT_CHROMIUM names "${explicit}", which is not an executable.`,
          remediation: BROWSER_REMEDY,
        };
  }
  for (const name of BROWSER_NAMES) {
    const path = await findExecutable(name, searchPath);
    if (path) return { found: true, path };
  }
  return {
    found: false,
    reason: `No Chromium or Chrome was found on PATH (${BROWSER_NAMES.join(', ')}).`,
    remediation: BROWSER_REMEDY,
  };
}

/**
 * Flags for a browser nobody looks at, on machines that may have no network: without the background-networking
 * ones Chromium keeps trying to reach Google's services. --no-sandbox because the app often runs as root in
 * containers, where Chromium's sandbox cannot start.
 */
export const HEADLESS_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-dev-shm-usage',
];

export interface OwnedBrowser {
  readonly page: Page;
  /** PNG of the page as it is on screen. */
  screenshot(): Promise<Buffer>;
  setViewport(width: number, height: number): Promise<void>;
  close(): Promise<void>;
}

export async function launchStudioBrowser(options: {
  executablePath: string;
  url: string;
  viewport: { width: number; height: number };
  log: (message: string) => void;
  onClosed: () => void;
}): Promise<OwnedBrowser> {
  const { chromium } = await import('playwright-core');
  const browser: Browser = await chromium.launch({
    executablePath: options.executablePath,
    headless: true,
    args: HEADLESS_ARGS,
  });
  browser.on('disconnected', options.onClosed);
  try {
    const context = await browser.newContext({ viewport: options.viewport });
    const page = await context.newPage();
    page.on('pageerror', (err) => options.log(`studio (headless) page error: ${err.message}`));
    await page.goto(options.url, { waitUntil: 'load' });
    return {
      page,
      screenshot: () => page.screenshot({ type: 'png' }),
      setViewport: (width, height) => page.setViewportSize({ width, height }),
      close: async () => {
        browser.off('disconnected', options.onClosed);
        await browser.close().catch(() => undefined);
      },
    };
  } catch (err) {
    await browser.close().catch(() => undefined);
    throw err;
  }
}
