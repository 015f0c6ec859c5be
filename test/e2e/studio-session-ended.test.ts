/**
 * A studio page whose app was restarted: the new app does not know the page's session cookie, so the page
 * cannot reconnect. It says so (the connection "ended", an alert naming the remedy: a fresh link), and a control
 * used meanwhile says the same, instead of "closed" and "wait for the connection to come back" for ever.
 * A real app restarted on the same port, a real Chromium.
 */
import { expect, it } from 'vitest';
import { describeWithChromium, openStudio } from '../helpers/chromium.js';
import { StudioApp } from '../helpers/studio-browser.js';
import { tempDir } from '../helpers/tmp.js';

describeWithChromium('a studio page after its app restarts', () => {
  it('says the session has ended and how to get a fresh link', async () => {
    const dir = await tempDir();
    const first = await StudioApp.start(dir);
    const port = first.app.port;
    await first.control.call('engine.execute', {
      id: 'comp.new',
      params: { name: 'C', width: 64, height: 36, frameRate: 10, duration: 1 },
    });
    const page = await openStudio(first.app.link);
    const status = page.locator('.topbar [role="status"]');
    await expect.poll(() => status.textContent()).toBe('live');
    first.control.close();
    await first.app.stop();
    // The same address, a new app: it knows no session of the old one's.
    let second: Awaited<ReturnType<typeof StudioApp.start>> | undefined;
    for (let tries = 0; !second && tries < 20; tries++)
      second = await StudioApp.start(dir, ['--port', String(port)]).catch(async () => {
        await new Promise((r) => setTimeout(r, 250));
        return undefined;
      });
    expect(second).toBeDefined();
    try {
      await expect.poll(() => status.textContent(), { timeout: 20_000 }).toBe('ended');
      const alert = page.locator('.session-ended[role="alert"]');
      expect(await alert.textContent()).toContain('This studio session has ended');
      expect(await alert.textContent()).toContain('control {"action": "link"}');
      // The remedy works: the new app's link, opened in the same tab, is the studio live again.
      await page.goto(second!.app.link);
      await expect.poll(() => status.textContent(), { timeout: 20_000 }).toBe('live');
    } finally {
      await page.context().close();
      second?.control.close();
      await second?.app.stop();
    }
  }, 60_000);
});
