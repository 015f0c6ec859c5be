/// <reference lib="dom" />
/**
 * What the studio's toasts tell a person: the studio's own controls, not command syntax (an empty rename, a
 * redo with nothing to redo, a speed that leaves the out point wrong), and a value typed into a field of a layer
 * an agent deletes meanwhile is dropped with a notice instead of sent to fail. A real app and Chromium.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithChromium, openStudio } from '../helpers/chromium.js';
import type { ControlClient } from '../helpers/studio-browser.js';
import { StudioApp } from '../helpers/studio-browser.js';
import { tempDir } from '../helpers/tmp.js';

let app: StudioApp;
let control: ControlClient;
let page: Page;
let main: string;

const exec = <T>(id: string, params: Record<string, unknown> = {}) => control.execute<T>(id, params);
const toasts = () =>
  page.locator('.toasts [role="alert"]').evaluateAll((ts) => ts.map((t) => (t as HTMLElement).innerText));
/** The toasts' text once one matching `pattern` is up. */
async function toastMatching(pattern: RegExp): Promise<string> {
  await expect.poll(async () => (await toasts()).some((t) => pattern.test(t)), { timeout: 5000 }).toBe(true);
  return (await toasts()).find((t) => pattern.test(t))!;
}
const COMMAND_SYNTAX = /layer\.\w+|edit\.\w+|doc_inspect|command_list|schema|\{|layer_\d/;

describeWithChromium("the studio's toasts", () => {
  beforeAll(async () => {
    ({ app, control } = await StudioApp.start(await tempDir()));
    ({ main } = await control.nestedScene());
    await exec('layer.addText', { comp: main, text: 'Hi', name: 'Title' });
    page = await openStudio(app.link);
  });

  afterAll(async () => {
    control?.close();
    await app?.stop();
  });

  it('says a layer needs a name', async () => {
    await page.locator('[data-panel="Layers"]').getByText('Title', { exact: true }).dblclick();
    const field = page.getByRole('textbox', { name: 'Rename Title' });
    await field.fill('');
    await field.press('Enter');
    const text = await toastMatching(/A layer needs a name/);
    expect(text).not.toMatch(COMMAND_SYNTAX);
  });

  it('says there is nothing to redo', async () => {
    await page.locator('[data-panel="Viewer"]').click();
    await page.keyboard.press('Control+Shift+Z');
    const text = await toastMatching(/Nothing to redo/);
    expect(text).not.toMatch(COMMAND_SYNTAX);
  });

  it("says where a sped-up precomp's source ends, with the Timeline and Loop", async () => {
    await control.call('ui.set', { control: 'Layers/selected', value: 'Nested' });
    await control.call('ui.set', { control: 'Properties/Time/Speed', value: 4 });
    const text = await toastMatching(/At speed 4/);
    expect(text).toMatch(/ends at 2\.5 s.*out point to 2\.5 s.*Timeline.*Loop/s);
    expect(text).not.toMatch(COMMAND_SYNTAX);
  });

  it('drops a value typed for a layer an agent deletes meanwhile, with a notice', async () => {
    await page.locator('[data-panel="Layers"]').getByText('Title', { exact: true }).click();
    await page
      .locator('[data-panel="Properties"] [role="slider"][data-control="Properties/Transform/Rotation"]')
      .click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('45');
    // No Enter: the agent deletes the layer while the value waits.
    await exec('layer.delete', { comp: main, layer: 'Title' });
    const text = await toastMatching(/deleted/);
    expect(text).toMatch(/nothing was changed/);
    expect(text).not.toMatch(COMMAND_SYNTAX);
    // Nothing was sent: no refused command in the Activity panel.
    await page.waitForTimeout(500);
    expect(await toasts()).not.toContainEqual(expect.stringMatching(/not_found/));
  });
});
