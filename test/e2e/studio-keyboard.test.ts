/// <reference lib="dom" />
/**
 * Project items and layer rows by keyboard: each list is one tab stop, Up/Down move the focus, Enter (or Space on
 * an item not already picked) selects a layer or activates a composition; Space on the picked row still plays.
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

const focused = () => page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? null);
const tabStops = (tree: string) =>
  page
    .locator(`[role="tree"][aria-label="${tree}"] [role="treeitem"][tabindex="0"]`)
    .evaluateAll((items) => items.map((i) => i.getAttribute('aria-label')));
const selectedLayer = () =>
  page
    .locator('[data-panel="Layers"] [role="treeitem"][aria-selected="true"]')
    .evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label')));

describeWithChromium('project items and layer rows by keyboard', () => {
  beforeAll(async () => {
    ({ app, control } = await StudioApp.start(await tempDir()));
    const { main } = await control.nestedScene();
    await control.execute('layer.addText', { comp: main, text: 'Hi', name: 'Title' });
    await control.execute('layer.addSolid', { comp: main, color: '#ff0000', name: 'Plate' });
    page = await openStudio(app.link);
  });

  afterAll(async () => {
    control?.close();
    await app?.stop();
  });

  it('moves through the layers with Up/Down and selects with Enter or Space', async () => {
    // One tab stop for the list: the first row while none is selected.
    expect(await tabStops('Layers of Main')).toEqual(['Plate']);
    await page.locator('[data-panel="Layers"] [role="treeitem"]').first().focus();
    await page.keyboard.press('ArrowDown');
    expect(await focused()).toBe('Title');
    await page.keyboard.press('Enter');
    await expect.poll(selectedLayer).toEqual(['Title']);
    expect(await tabStops('Layers of Main')).toEqual(['Title']);
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press(' ');
    await expect.poll(selectedLayer).toEqual(['Nested']);
    // Up stops at the top; the transport's keys are not taken.
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await focused()).toBe('Plate');
    // Space on the selected row is play and pause, as after a click on it.
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press(' ');
    await expect.poll(() => page.locator('[data-panel="Transport"] [aria-label="Pause"]').count()).toBe(1);
    await page.keyboard.press(' ');
    await expect.poll(() => page.locator('[data-panel="Transport"] [aria-label="Play"]').count()).toBe(1);
  });

  it('activates a composition with Enter', async () => {
    expect(await tabStops('Project items')).toEqual(['Composition Main']);
    await page.locator('[role="treeitem"][aria-label="Composition Main"]').focus();
    await page.keyboard.press('ArrowUp');
    expect(await focused()).toBe('Composition Inner');
    await page.keyboard.press('Enter');
    await expect
      .poll(async () => (await control.call<{ doc: { activeComp: string } }>('session.view')).doc.activeComp)
      .toBe('comp_1');
    await expect.poll(() => tabStops('Project items')).toEqual(['Composition Inner']);
  });
});
