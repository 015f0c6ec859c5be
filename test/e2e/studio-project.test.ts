/// <reference lib="dom" />
/**
 * The Project panel's file state in a real Chromium against a real app: "unsaved changes" and "not saved" clear
 * in every tab as soon as anyone saves (a person's Save or Save As, an agent's project.save), and Open then asks
 * nothing. A save changes no document, so this rides on the app's event.projectSaved, not documentChanged.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeWithChromium, openAnotherTab, openStudio } from '../helpers/chromium.js';
import type { ControlClient } from '../helpers/studio-browser.js';
import { StudioApp } from '../helpers/studio-browser.js';
import { tempDir } from '../helpers/tmp.js';

let app: StudioApp;
let control: ControlClient;
let page: Page;
let other: Page;

const exec = <T>(id: string, params: Record<string, unknown> = {}) => control.execute<T>(id, params);
/** The line under the project's name: its path (or "not saved") and " · unsaved changes". */
const fileLine = (p: Page) => p.locator('[data-panel="Project"] .project-meta .path').innerText();

describeWithChromium('saving in the studio', () => {
  beforeAll(async () => {
    ({ app, control } = await StudioApp.start(await tempDir()));
    await exec('comp.new', { name: 'Shot', width: 64, height: 36, frameRate: 10, duration: 1 });
    page = await openStudio(app.link);
    other = await openAnotherTab(page, new URL(app.link).origin);
  });

  afterAll(async () => {
    control?.close();
    await app?.stop();
  });

  it('clears "not saved" in every tab at once after Save As of a new project', async () => {
    expect(await fileLine(page)).toMatch(/not saved/);
    const path = join(await tempDir(), 'new.ecproj');
    await page.getByRole('button', { name: 'Save project' }).click();
    const field = page.getByRole('textbox', { name: 'Save project as' });
    await field.fill(path);
    await field.press('Enter');
    for (const tab of [page, other]) {
      await expect.poll(() => fileLine(tab), { timeout: 5000 }).toContain('new.ecproj');
      expect(await fileLine(tab)).not.toMatch(/unsaved/);
    }
  });

  it('clears "unsaved changes" in every tab after a person\'s Save and an agent\'s save', async () => {
    // (tempDir's folders go after each test.)
    const path = join(await tempDir(), 'saved.ecproj');
    await exec('project.save', { path });
    await exec('layer.addSolid', { color: '#00ff00', width: 10, height: 10 });
    for (const tab of [page, other])
      await expect.poll(() => fileLine(tab), { timeout: 5000 }).toMatch(/unsaved changes/);
    await other.getByRole('button', { name: 'Save project' }).click();
    for (const tab of [page, other])
      await expect.poll(() => fileLine(tab), { timeout: 5000 }).not.toMatch(/unsaved/);

    await exec('layer.addSolid', { color: '#0000ff', width: 10, height: 10 });
    await expect.poll(() => fileLine(page), { timeout: 5000 }).toMatch(/unsaved changes/);
    await exec('project.save');
    for (const tab of [page, other])
      await expect.poll(() => fileLine(tab), { timeout: 5000 }).not.toMatch(/unsaved/);

    // Nothing to drop: Open opens at the first Enter, without the warning.
    await page.getByRole('button', { name: 'Open project' }).click();
    const field = page.getByRole('textbox', { name: 'Project file to open' });
    await field.fill(path);
    await field.press('Enter');
    await expect.poll(() => page.getByRole('alert').count()).toBe(0);
    await expect.poll(() => field.count(), { timeout: 5000 }).toBe(0);
  });

  it('asks before replacing a file someone else saved since, and replaces it when told', async () => {
    const path = join(await tempDir(), 'shared.ecproj');
    await exec('project.save', { path });
    await exec('layer.addSolid', { color: '#ff0000', width: 10, height: 10, name: 'ours' });
    await expect.poll(() => fileLine(page), { timeout: 5000 }).toMatch(/unsaved changes/);
    // Another session saves the file meanwhile (its own project name).
    const theirs = JSON.parse(await readFile(path, 'utf8')) as { name: string };
    theirs.name = 'Theirs';
    await writeFile(path, JSON.stringify(theirs, null, 2));

    await page.getByRole('button', { name: 'Save project' }).click();
    await expect
      .poll(() => page.getByRole('alert').allInnerTexts(), { timeout: 5000 })
      .toContainEqual(expect.stringMatching(/Someone else saved this file/));
    expect(((await readFile(path, 'utf8')) as string).includes('"Theirs"')).toBe(true);
    const field = page.getByRole('textbox', { name: 'Save project as' });
    expect(await field.inputValue()).toBe(path);
    await page.getByRole('button', { name: 'Replace their version' }).click();
    await expect.poll(() => field.count(), { timeout: 5000 }).toBe(0);
    const saved = await readFile(path, 'utf8');
    expect(saved).toContain('"ours"');
    expect(saved).not.toContain('"Theirs"');
  });
});
