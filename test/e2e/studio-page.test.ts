/// <reference lib="dom" />
/**
 * The studio page in a real Chromium against a real `effectcraft-cli app` with the sample project: its panels,
 * a person's typed edit (one command, undoable), playback, and the UI tools the app forwards to the page
 * (ui.set of a view control, the in-page screenshot). One app for the file; one browser (test/helpers/chromium).
 */
import { rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PANELS } from '../../src/studio/protocol.js';
import { describeWithChromium, openAnotherTab, openStudio } from '../helpers/chromium.js';
import { repoRoot } from '../helpers/cli.js';
import { itWithFfmpeg } from '../helpers/ffmpeg.js';
import type { ControlClient, RpcFailure } from '../helpers/studio-browser.js';
import { StudioApp } from '../helpers/studio-browser.js';
import { tone } from '../helpers/audio.js';
import { tempDir } from '../helpers/tmp.js';

interface ViewLayer {
  id: string;
  name: string;
  transform: { rotation: { value: number } };
}
interface View {
  doc: { activeComp: string; items: Array<{ id: string; width: number; layers?: ViewLayer[] }> };
  revision: number;
}

let app: StudioApp;
let control: ControlClient;
let page: Page;

const canvas = () => page.locator('[data-panel="Viewer"] canvas[data-revision]');
const samplePath = join(repoRoot, 'fixtures/sample/sample.ecproj');

async function layersOfDoc(): Promise<ViewLayer[]> {
  const view = await control.call<View>('session.view');
  return view.doc.items.find((i) => i.id === view.doc.activeComp)!.layers!;
}

describeWithChromium('the studio page', () => {
  beforeAll(async () => {
    const dir = await tempDir();
    ({ app, control } = await StudioApp.start(dir, ['--project', samplePath]));
    page = await openStudio(app.link);
  });

  afterAll(async () => {
    control?.close();
    await app?.stop();
  });

  it('shows every panel, and the layers of the document in its order', async () => {
    for (const name of PANELS) expect(await page.locator(`[data-panel="${name}"]`).count()).toBe(1);
    const shown = await page
      .locator('[data-panel="Layers"] [role="treeitem"]')
      .evaluateAll((rows) => rows.map((r) => r.getAttribute('aria-label')));
    expect(shown).toEqual((await layersOfDoc()).map((l) => l.name));
    expect(Number(await canvas().getAttribute('data-revision'))).toBeGreaterThanOrEqual(0);
  });

  it('keeps the dock buttons (Render, Stop, Undo, Redo) inside a 1280x720 window', async () => {
    const small = await openAnotherTab(page, new URL(app.link).origin);
    await small.setViewportSize({ width: 1280, height: 720 });
    const inside = async (name: string) => {
      const box = (await small.getByRole('button', { name, exact: true }).boundingBox())!;
      return box.x >= 0 && box.x + box.width <= 1280;
    };
    await small.getByRole('tab', { name: 'Render Queue' }).click();
    expect([await inside('Render'), await inside('Stop render')]).toEqual([true, true]);
    await small.getByRole('tab', { name: 'Activity' }).click();
    expect([await inside('Undo'), await inside('Redo')]).toEqual([true, true]);
    await small.close();
  });

  it("makes a person's typed value one command that another page sees and that undoes in one step", async () => {
    await page.locator('[data-panel="Layers"]').getByText('Title', { exact: true }).click();
    const rotation = page.locator(
      '[data-panel="Properties"] [role="slider"][data-control="Properties/Transform/Rotation"]',
    );
    await rotation.click();
    await page.keyboard.press('Control+A');
    await page.keyboard.type('12.5');
    await page.keyboard.press('Enter');
    const title = async () => (await layersOfDoc()).find((l) => l.name === 'Title')!;
    await expect.poll(async () => (await title()).transform.rotation.value).toBe(12.5);

    const other = await openAnotherTab(page, new URL(app.link).origin);
    await other.locator('[data-panel="Layers"]').getByText('Title', { exact: true }).click();
    await expect
      .poll(() =>
        other
          .locator('[role="slider"][data-control="Properties/Transform/Rotation"]')
          .getAttribute('aria-valuenow'),
      )
      .toBe('12.5');
    await other.close();

    await page.locator('[data-panel="Viewer"]').click();
    await page.keyboard.press('Control+Z');
    await expect.poll(async () => (await title()).transform.rotation.value).toBe(0);
    await expect.poll(() => rotation.getAttribute('aria-valuenow')).toBe('0');
  });

  it("says the project has unsaved changes, and asks before Open drops them (an agent's included)", async () => {
    const dir = await tempDir();
    const other = join(dir, 'other.ecproj');
    await control.call('engine.execute', { id: 'project.new', params: { name: 'Other' } });
    await control.call('engine.execute', { id: 'project.save', params: { path: other } });
    await control.call('engine.execute', { id: 'project.open', params: { path: samplePath } });
    const meta = page.locator('[data-panel="Project"] .project-meta');
    await expect.poll(() => meta.textContent()).not.toContain('unsaved changes');
    // The agent's edit, not saved: the page says so.
    await control.call('engine.execute', {
      id: 'layer.rename',
      params: { layer: 'Title', name: 'Agent work' },
    });
    await expect.poll(() => meta.textContent()).toContain('unsaved changes');
    await page.getByRole('button', { name: 'Open project' }).click();
    await page.getByLabel('Project file to open').fill(other);
    await page.keyboard.press('Enter');
    const asked = page.locator('[data-panel="Project"] .hint.warn');
    await expect.poll(() => asked.textContent()).toContain('unsaved changes');
    await new Promise((r) => setTimeout(r, 300));
    expect((await layersOfDoc()).some((l) => l.name === 'Agent work')).toBe(true);
    // Escape keeps the work; asked again and answered with a second Enter, the other project opens.
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: 'Open project' }).click();
    await page.getByLabel('Project file to open').fill(other);
    await page.keyboard.press('Enter');
    await expect.poll(() => asked.count()).toBe(1);
    await page.keyboard.press('Enter');
    await expect
      .poll(async () => (await control.call<{ doc: { name: string } }>('session.view')).doc.name)
      .toBe('Other');
    await control.call('engine.execute', { id: 'project.open', params: { path: samplePath } });
    await expect.poll(() => meta.textContent()).not.toContain('unsaved changes');
  });

  it("shows a refused command once, as an alert with the engine's message and remedy, until dismissed", async () => {
    const before = await control.call<View>('session.view');
    await page.getByRole('button', { name: 'Open project' }).click();
    await page.getByLabel('Project file to open').fill('/nowhere/at/all.ecproj');
    await page.keyboard.press('Enter');
    const alert = page.getByRole('alert');
    await expect.poll(() => alert.count()).toBe(1);
    const text = await alert.textContent();
    expect(text).toContain('/nowhere/at/all.ecproj');
    expect(text).toContain('no_such_file');
    expect(await alert.locator('.toast-main span').textContent()).toMatch(/\w+ \w+/);
    // Only the toasts are alerts: no live region around them repeats the message.
    expect(await page.locator('[aria-live], [role="status"]').filter({ hasText: 'all.ecproj' }).count()).toBe(
      0,
    );
    expect((await control.call<View>('session.view')).revision).toBe(before.revision);
    await alert.getByRole('button', { name: 'Dismiss message' }).click();
    await expect.poll(() => alert.count()).toBe(0);
    await page.keyboard.press('Escape');
  });

  it("shows an agent's render as it ends: done when finished, stopped after a stop, with Render lit again", async () => {
    const dir = await tempDir();
    const exec = async <T>(id: string, params: Record<string, unknown> = {}) =>
      (await control.call<{ result: T }>('engine.execute', { id, params })).result;
    const comp = (await control.call<View>('session.view')).doc.activeComp;
    const added = (output: string, frames?: number) =>
      exec<{ id: string }>('renderQueue.add', {
        comp,
        output: join(dir, output),
        ...(frames && { frameRange: { start: 0, end: frames - 1 } }),
      });
    const statusOf = (id: string) => page.locator(`[aria-label="Render item ${id}"]`).getAttribute('class');
    const short = await added('a_[###].png', 3);
    await exec('renderQueue.render', { wait: false, items: [short.id] });
    await expect.poll(() => statusOf(short.id), { timeout: 20_000 }).toContain('status-done');
    // A stop sends no progress: the panel still learns of it.
    const long = await added('b_[###].png');
    await exec('renderQueue.render', { wait: false, items: [long.id] });
    await expect.poll(() => statusOf(long.id), { timeout: 20_000 }).toContain('status-rendering');
    await exec('renderQueue.stop');
    await expect.poll(() => statusOf(long.id), { timeout: 10_000 }).toContain('status-stopped');
    // The row says it stopped, and how far it got, as renderQueue.list does (framesDone of framesTotal).
    const row = page.locator(`[aria-label="Render item ${long.id}"]`);
    const listed = (
      await exec<{ items: Array<{ id: string; framesDone: number; framesTotal: number }> }>(
        'renderQueue.list',
      )
    ).items.find((i) => i.id === long.id)!;
    expect(listed.framesDone).toBeLessThan(listed.framesTotal);
    await expect
      .poll(() => row.textContent())
      .toMatch(new RegExp(`stopped.*${listed.framesDone}/${listed.framesTotal} frames`));
    expect(await page.getByRole('button', { name: 'Render', exact: true }).isEnabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Stop render' }).isEnabled()).toBe(false);
    for (const id of [short.id, long.id]) await exec('renderQueue.remove', { id });
  });

  it('shows a failed item once, with its remedy, and a sound file by its share done, not by frames', async () => {
    const dir = await tempDir();
    const exec = async <T>(id: string, params: Record<string, unknown> = {}) =>
      (await control.call<{ result: T }>('engine.execute', { id, params })).result;
    const comp = (await control.call<View>('session.view')).doc.activeComp;
    // A file where a folder should be: the render fails, saying what to do.
    await writeFile(join(dir, 'file'), 'not a folder');
    const bad = await exec<{ id: string }>('renderQueue.add', {
      comp,
      output: join(dir, 'file', 'f_[###].png'),
      frameRange: { start: 0, end: 1 },
    });
    const wav = await exec<{ id: string }>('renderQueue.add', { comp, output: join(dir, 'mix.wav') });
    await exec('renderQueue.render', { items: [bad.id, wav.id] });
    const row = (id: string) => page.locator(`[aria-label="Render item ${id}"]`);
    await expect
      .poll(() => row(bad.id).getAttribute('class'), { timeout: 20_000 })
      .toContain('status-failed');
    const listed = (
      await exec<{ items: Array<{ id: string; error?: { remediation: string } }> }>('renderQueue.list')
    ).items.find((i) => i.id === bad.id)!;
    expect(await row(bad.id).locator('.error-text').textContent()).toContain(listed.error!.remediation);
    expect((await row(bad.id).textContent())!.match(/failed/g)).toHaveLength(1);
    await expect.poll(() => row(wav.id).locator('.progress-text').textContent()).toBe('sound 100%');
    for (const id of [bad.id, wav.id]) await exec('renderQueue.remove', { id });
  });

  itWithFfmpeg(
    "shows an agent's background render that fails before its first frame as failed, with its remedy",
    async () => {
      const dir = await tempDir();
      const exec = async <T>(id: string, params: Record<string, unknown> = {}) =>
        (await control.call<{ result: T }>('engine.execute', { id, params })).result;
      const active = (await control.call<View>('session.view')).doc.activeComp;
      // A composition whose sound file is gone (moved away): the render's mix fails on it before any frame.
      const sound = await tone(dir, { freq: 440, seconds: 1 });
      const comp = (
        await exec<{ id: string }>('comp.new', { name: 'Gone', width: 16, height: 16, duration: 1 })
      ).id;
      const footage = (await exec<{ id: string }>('file.import', { path: sound })).id;
      await exec('layer.addFootage', { comp, footage });
      await exec('comp.setActive', { comp: active });
      await rm(sound);
      const bad = await exec<{ id: string }>('renderQueue.add', { comp, output: join(dir, 'gone.mp4') });
      const row = page.locator(`[aria-label="Render item ${bad.id}"]`);
      // The page has read the queue since the item was added (nothing of its own refreshes it later).
      await expect.poll(() => row.getAttribute('class'), { timeout: 10_000 }).toContain('status-queued');
      // wait:false, as the bridge sends every render, and no item after it: no frame, so no progress event.
      await exec('renderQueue.render', { wait: false, items: [bad.id] });
      const listed = async () =>
        (
          await exec<{ items: Array<{ id: string; status: string; error?: { remediation: string } }> }>(
            'renderQueue.list',
          )
        ).items.find((i) => i.id === bad.id)!;
      await expect.poll(async () => (await listed()).status, { timeout: 20_000 }).toBe('failed');
      // Until 2026-12-08 the row read "queued", 0 frames, with no error, until some edit refreshed the page.
      await expect.poll(() => row.getAttribute('class'), { timeout: 10_000 }).toContain('status-failed');
      expect(await row.locator('.error-text').textContent()).toContain((await listed()).error!.remediation);
      await exec('renderQueue.remove', { id: bad.id });
      await exec('comp.delete', { comp });
      await exec('footage.remove', { footage });
    },
  );

  itWithFfmpeg("shows a done item's warning: a WAV of a muted sound is silence", async () => {
    const dir = await tempDir();
    const exec = async <T>(id: string, params: Record<string, unknown> = {}) =>
      (await control.call<{ result: T }>('engine.execute', { id, params })).result;
    const active = (await control.call<View>('session.view')).doc.activeComp;
    const sound = await tone(dir, { freq: 440, seconds: 1 });
    const comp = (
      await exec<{ id: string }>('comp.new', { name: 'Hush', width: 16, height: 16, duration: 1 })
    ).id;
    const footage = (await exec<{ id: string }>('file.import', { path: sound })).id;
    const layer = (await exec<{ id: string }>('layer.addFootage', { comp, footage })).id;
    await exec('layer.setAudioMuted', { comp, layer, muted: true });
    await exec('comp.setActive', { comp: active });
    const output = join(dir, 'hush.wav');
    const item = await exec<{ id: string }>('renderQueue.add', { comp, output });
    await exec('renderQueue.render', { wait: false, items: [item.id] });
    const row = page.locator(`[aria-label="Render item ${item.id}"]`);
    await expect.poll(() => row.getAttribute('class'), { timeout: 20_000 }).toContain('status-done');
    // Until 2026-12-08 the row read done and nothing else: a person took the silence for the mix.
    await expect.poll(() => row.locator('.warning-text').textContent()).toContain(output);
    expect(await row.locator('.warning-text').textContent()).toMatch(/silence/);
    await exec('renderQueue.remove', { id: item.id });
    await exec('comp.delete', { comp });
    await exec('footage.remove', { footage });
  });

  it('plays in real time: the transport reports the fps reached and the painted frame advances', async () => {
    const transport = page.locator('[data-panel="Transport"]');
    const first = Number(await canvas().getAttribute('data-frame'));
    await transport.getByRole('button', { name: 'Play', exact: true }).click();
    await expect
      .poll(async () => Number(await transport.getAttribute('data-fps')), { timeout: 10_000 })
      .toBeGreaterThan(0);
    await expect.poll(async () => Number(await canvas().getAttribute('data-frame'))).not.toBe(first);
    await transport.getByRole('button', { name: 'Pause', exact: true }).click();
    await expect.poll(() => transport.getAttribute('data-fps')).toBe('0');
  });

  it('sets Viewer/zoom through the UI tools, and the canvas takes that size', async () => {
    // The UI tools drive the page focused last.
    await page.locator('[data-panel="Viewer"]').click();
    const compWidth = (await control.call<View>('session.view')).doc.items[0]!.width;
    const one = await control.call('ui.set', { control: 'Viewer/zoom', value: 1 });
    expect(one).toMatchObject({ control: 'Viewer/zoom', value: 1 });
    expect((await canvas().boundingBox())!.width).toBeCloseTo(compWidth, 0);
    await control.call('ui.set', { control: 'Viewer/zoom', value: 0.5 });
    expect((await canvas().boundingBox())!.width).toBeCloseTo(compWidth / 2, 0);
    const wrong = await control.call('ui.set', { control: 'Viewer/nope', value: 1 }).catch((e: unknown) => e);
    expect(wrong).toMatchObject({ data: { code: 'not_found' } });
    await control.call('ui.set', { control: 'Viewer/zoom', value: 'fit' });
  });

  it('refuses a click or a drag that starts off the page with bad_argument, instead of answering a hit of null', async () => {
    await page.locator('[data-panel="Viewer"]').click();
    const fail = (method: string, params: unknown) => control.call(method, params).catch((e: unknown) => e);
    // The page is 1600x1000: (1700, 500) is past its right edge, as the device pixels of a 2x screenshot would be.
    expect(await fail('ui.click', { x: 1700, y: 500 })).toMatchObject({ data: { code: 'bad_argument' } });
    const drag = { from: { x: -1, y: 500 }, to: { x: 800, y: 500 } };
    expect(await fail('ui.drag', drag)).toMatchObject({ data: { code: 'bad_argument' } });
    // A drag may still end off the page, as a person's can.
    const inside = await control.call('ui.drag', { from: { x: 800, y: 500 }, to: { x: 1700, y: 500 } });
    expect(inside).toMatchObject({ from: { tag: expect.any(String) } });
    expect(await control.call('ui.click', { x: 800, y: 500 })).toMatchObject({
      hit: { tag: expect.any(String) },
    });
  });

  it('stops a UI script after 20 s with a remedy that script_ui can follow', async () => {
    await page.locator('[data-panel="Viewer"]').click();
    const hung = await control
      .call('ui.script', { code: 'await new Promise(() => {});' })
      .catch((e: unknown) => e);
    expect(hung).toMatchObject({ data: { code: 'timeout' } });
    // It told the agent to "pass a longer timeoutMs", a parameter script_ui refuses (it takes only code).
    expect((hung as RpcFailure).data!.remediation).not.toMatch(/timeoutMs/);
    // The page still runs scripts.
    expect(await control.call('ui.script', { code: 'return 1 + 1;' })).toMatchObject({ value: 2 });
  }, 40_000);

  it('says which page froze when a UI script never yields, and what to do about it', async () => {
    const { url } = await control.call<{ url: string }>('studio.link');
    const frozen = await openStudio(url);
    try {
      await frozen.locator('[data-panel="Viewer"]').click();
      const { driving } = await control.call<{ driving: { pageId: string } }>('studio.status');
      // A loop without await blocks the page's thread: its own 20 s limit never fires, the app's 25 s does.
      const hung = await control.call('ui.script', { code: 'while (true) {}' }).catch((e: unknown) => e);
      expect(hung).toMatchObject({ data: { code: 'timeout' } });
      // It said "The app did not answer page.script" and to check project.inspect or renderQueue.list.
      const { message, remediation } = (hung as RpcFailure).data!;
      expect(message).toContain(driving.pageId);
      expect(remediation).not.toMatch(/project\.inspect|renderQueue/);
    } finally {
      await frozen.context().close();
    }
  }, 60_000);

  it('answers the screenshot action with a PNG of the page that shows the viewer', async () => {
    await page.locator('[data-panel="Viewer"]').click();
    const shot = await control.call<{ png: string; width: number; height: number }>('ui.control', {
      action: 'screenshot',
    });
    const png = Buffer.from(shot.png, 'base64');
    const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
    expect([info.width, info.height]).toEqual([shot.width, shot.height]);
    // The viewer's centre in the screenshot has the canvas's own colour there.
    const box = (await canvas().boundingBox())!;
    const cx = Math.round(box.x + box.width / 2);
    const cy = Math.round(box.y + box.height / 2);
    const expected = await canvas().evaluate((c: HTMLCanvasElement) => {
      const d = c.getContext('2d')!.getImageData(c.width / 2, c.height / 2, 1, 1).data;
      return [d[0]!, d[1]!, d[2]!];
    });
    const i = (cy * info.width + cx) * info.channels;
    const got = [data[i]!, data[i + 1]!, data[i + 2]!];
    for (let c = 0; c < 3; c++) expect(Math.abs(got[c]! - expected[c]!)).toBeLessThan(24);
  });
});
