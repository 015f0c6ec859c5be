/// <reference lib="dom" />
/**
 * A person steering a clip in the studio: its Time settings (speed, reverse, loop, freeze, frame blending) and
 * its sound (level, mute, which audio stream) in the Properties panel, its in and out points trimmed on the
 * timeline, and footage whose file went away marked and relinked in the Project panel. Each change a person makes
 * is read back from the document an agent sees, and undoes in one step. A real app, a real Chromium, real files.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeWithChromium, openStudio } from '../helpers/chromium.js';
import { hasFfmpeg } from '../helpers/ffmpeg.js';
import type { ControlClient } from '../helpers/studio-browser.js';
import { StudioApp } from '../helpers/studio-browser.js';

const exec = promisify(execFile);
const FPS = 30;

interface ViewLayer {
  id: string;
  name: string;
  startTime: number;
  inPoint: number;
  outPoint: number;
  time?: { speed: number; loop: boolean; freezeAt: number | null; frameBlending?: boolean };
  audio?: { level: { value: number; keyframes: unknown[] }; muted: boolean; stream?: number };
}
interface View {
  doc: { activeComp: string; items: Array<{ id: string; path?: string; layers?: ViewLayer[] }> };
}

let dir: string;
let app: StudioApp;
let control: ControlClient;
let page: Page;
let clipPath: string;
let clipItem: string;
let clipLayer: string;

const run = async <T = Record<string, unknown>>(id: string, params: Record<string, unknown> = {}) =>
  (await control.call<{ result: T }>('engine.execute', { id, params })).result;

async function layer(id: string): Promise<ViewLayer> {
  const view = await control.call<View>('session.view');
  return view.doc.items.find((i) => i.id === view.doc.activeComp)!.layers!.find((l) => l.id === id)!;
}

const properties = () => page.locator('[data-panel="Properties"]');
const field = (path: string) => properties().locator(`[data-control="${path}"]`);

/** Clicks a scrub field, types a value and presses Enter, as a person types one. */
async function typeInto(path: string, value: string): Promise<void> {
  await properties().locator(`[role="slider"][data-control="${path}"]`).click();
  await page.keyboard.press('Control+A');
  await page.keyboard.type(value);
  await page.keyboard.press('Enter');
}

async function undo(): Promise<void> {
  await page.locator('[data-panel="Viewer"]').click();
  await page.keyboard.press('Control+Z');
}

// Skipped only where Chromium or ffmpeg is missing; CI installs both and fails when either is.
const describeIfTools = hasFfmpeg ? describeWithChromium : describe.skip;

describeIfTools('a clip steered in the studio', () => {
  beforeAll(async () => {
    // Kept for the whole file (tempDir's folders go after the first test): the clip is renamed by the last.
    dir = await mkdtemp(join(tmpdir(), 'ec-studio-time-'));
    ({ app, control } = await StudioApp.start(dir));
    // 2 s of picture with two sound streams (a 440 Hz English one, an 880 Hz French one).
    clipPath = join(dir, 'interview.mp4');
    await exec('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y'],
      ...['-f', 'lavfi', '-i', `testsrc2=s=96x54:r=${FPS}:d=2`],
      ...['-f', 'lavfi', '-i', 'sine=frequency=440:duration=2'],
      ...['-f', 'lavfi', '-i', 'sine=frequency=880:duration=2'],
      ...[
        '-map',
        '0:v',
        '-map',
        '1:a',
        '-map',
        '2:a',
        '-c:v',
        'libx264',
        '-pix_fmt',
        'yuv420p',
        '-c:a',
        'aac',
      ],
      ...['-metadata:s:a:0', 'language=eng', '-metadata:s:a:1', 'language=fra', clipPath],
    ]);
    const still = join(dir, 'logo.png');
    await sharp({ create: { width: 32, height: 32, channels: 4, background: '#ff0000' } })
      .png()
      .toFile(still);
    await run('comp.new', { name: 'Main', width: 96, height: 54, frameRate: FPS, duration: 4 });
    clipItem = (await run<{ id: string }>('file.import', { path: clipPath })).id;
    const logo = (await run<{ id: string }>('file.import', { path: still })).id;
    await run('layer.addFootage', { footage: logo, name: 'Logo' });
    clipLayer = (await run<{ id: string }>('layer.addFootage', { footage: clipItem, name: 'Interview' })).id;
    page = await openStudio(app.link);
    await page.locator('[data-panel="Layers"]').getByText('Interview', { exact: true }).click();
  });

  afterAll(async () => {
    control?.close();
    await app?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("shows a clip's Time and Audio settings, and a person's ticks are the commands the agent reads back", async () => {
    await expect.poll(() => field('Properties/Time/Loop').count()).toBe(1);
    for (const group of ['Time', 'Audio'])
      expect(await properties().locator(`section[aria-label="${group}"]`).count()).toBe(1);

    await field('Properties/Time/Loop').check();
    await expect.poll(async () => (await layer(clipLayer)).time?.loop).toBe(true);
    await field('Properties/Audio/Mute').check();
    await expect.poll(async () => (await layer(clipLayer)).audio?.muted).toBe(true);
    await field('Properties/Time/Frame Blending').check();
    await expect.poll(async () => (await layer(clipLayer)).time?.frameBlending).toBe(true);

    // The file's second stream, by its menu, which names each stream.
    const stream = field('Properties/Audio/Stream');
    expect(await stream.locator('option').allTextContents()).toEqual([
      expect.stringMatching(/^0: aac, 1 ch, eng/),
      expect.stringMatching(/^1: aac, 1 ch, fra/),
    ]);
    await stream.selectOption('1');
    await expect.poll(async () => (await layer(clipLayer)).audio?.stream).toBe(1);

    // A tick leaves the keys to the page: Space plays (it does not tick the box again).
    await field('Properties/Time/Reverse').click();
    await expect.poll(async () => (await layer(clipLayer)).time?.speed).toBe(-1);
    const playButton = page.locator(
      '[aria-label="Transport"] [aria-pressed][aria-label="Play"], [aria-label="Transport"] [aria-label="Pause"]',
    );
    await page.keyboard.press('Space');
    await expect.poll(() => playButton.getAttribute('aria-pressed')).toBe('true');
    await page.keyboard.press('Space');
    await expect.poll(() => playButton.getAttribute('aria-pressed')).toBe('false');
    expect((await layer(clipLayer)).time?.speed).toBe(-1);
    // And Ctrl+Z, pressed right after the tick, undoes it.
    await page.keyboard.press('Control+Z');
    await expect.poll(async () => (await layer(clipLayer)).time?.speed).toBe(1);

    // Each was one undo step: undoing the stream leaves the mute.
    await undo();
    await expect.poll(async () => (await layer(clipLayer)).audio?.stream ?? 0).toBe(0);
    expect((await layer(clipLayer)).audio?.muted).toBe(true);
    await undo();
    await undo();
    await undo();
    await expect.poll(async () => (await layer(clipLayer)).time?.loop ?? false).toBe(false);
    expect((await layer(clipLayer)).audio?.muted ?? false).toBe(false);
  });

  it('mutes and unmutes a layer from the Layers panel, where a muted layer shows it; a still has no speaker', async () => {
    const layers = page.locator('[data-panel="Layers"]');
    await layers.getByRole('button', { name: 'Mute Interview' }).click();
    await expect.poll(async () => (await layer(clipLayer)).audio?.muted).toBe(true);
    expect(await layers.getByRole('button', { name: 'Unmute Interview' }).getAttribute('aria-pressed')).toBe(
      'false',
    );
    // The agent unmutes: the panel follows.
    await run('layer.setAudioMuted', { layer: clipLayer, muted: false });
    await expect.poll(() => layers.getByRole('button', { name: 'Mute Interview' }).count()).toBe(1);
    expect(await layers.getByRole('button', { name: /mute Logo/i }).count()).toBe(0);
    await page.locator('[data-panel="Layers"]').getByText('Interview', { exact: true }).click();
  });

  it("a sound file's layer offers no effect (it has no picture to change), and keeps its Audio settings", async () => {
    const wav = join(dir, 'bed.wav');
    await exec('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'sine=d=1', wav]);
    const bed = (await run<{ id: string }>('file.import', { path: wav })).id;
    const layerId = (await run<{ id: string }>('layer.addFootage', { footage: bed, name: 'Bed' })).id;
    await page.locator('[data-panel="Layers"]').getByText('Bed', { exact: true }).click();
    await expect.poll(() => properties().locator('section[aria-label="Audio"]').count()).toBe(1);
    expect(await properties().getByLabel('Add effect').count()).toBe(0);
    // Nor a blend mode or a parent (the engine refuses both), and it is offered to no layer as a parent.
    const layers = page.locator('[data-panel="Layers"]');
    expect(await layers.getByLabel('Blend mode of Bed').isDisabled()).toBe(true);
    expect(await layers.getByLabel('Parent of Bed').isDisabled()).toBe(true);
    expect(await layers.getByLabel('Blend mode of Interview').isDisabled()).toBe(false);
    expect(await layers.getByLabel('Parent of Interview').locator('option').allTextContents()).not.toContain(
      expect.stringContaining('Bed'),
    );
    expect(await layers.getByLabel('Parent of Interview').locator('option').allTextContents()).toContainEqual(
      expect.stringContaining('Logo'),
    );
    // On the clip (a picture), the menu is there.
    await page.locator('[data-panel="Layers"]').getByText('Interview', { exact: true }).click();
    await expect.poll(() => properties().getByLabel('Add effect').count()).toBe(1);
    await run('layer.delete', { layer: layerId });
  });

  it("an agent's screenshot of the page shows the ticks and the menu choice the person sees", async () => {
    const controls = [field('Properties/Time/Loop'), field('Properties/Audio/Stream')];
    const boxes = await Promise.all(controls.map(async (c) => (await c.boundingBox())!));
    /** The pixels of `box` in a PNG, as raw RGB. */
    const region = (png: Buffer, box: { x: number; y: number; width: number; height: number }) =>
      sharp(png)
        .extract({
          left: Math.floor(box.x),
          top: Math.floor(box.y),
          width: Math.ceil(box.width),
          height: Math.ceil(box.height),
        })
        .removeAlpha()
        .raw()
        .toBuffer();
    const meanDiff = (a: Buffer, b: Buffer) =>
      a.reduce((sum, v, i) => sum + Math.abs(v - b[i]!), 0) / a.length;
    const seen = () => page.screenshot().then((png) => Promise.all(boxes.map((b) => region(png, b))));
    const before = await seen();
    await controls[0]!.check();
    await controls[1]!.selectOption('1');
    await expect.poll(async () => (await layer(clipLayer)).audio?.stream).toBe(1);
    const after = await seen();
    await page.locator('[data-panel="Viewer"]').click();
    const shot = await control.call<{ png: string }>('ui.control', { action: 'screenshot' });
    const drawn = await Promise.all(boxes.map((b) => region(Buffer.from(shot.png, 'base64'), b)));
    for (let i = 0; i < boxes.length; i++) {
      // The change is visible on screen; the agent's picture is the screen's, not the page as first written.
      // The change is visible on screen, and the agent's picture is nearer the screen as it is now than as the page
      // was first written (text lands a subpixel apart between the two drawings, so not nearer zero).
      expect(meanDiff(before[i]!, after[i]!)).toBeGreaterThan(1);
      expect(meanDiff(drawn[i]!, after[i]!)).toBeLessThan(0.6 * meanDiff(drawn[i]!, before[i]!));
    }
    await undo();
    await undo();
    await expect.poll(async () => (await layer(clipLayer)).time?.loop ?? false).toBe(false);
  });

  it('takes a typed speed and level, reverses, and freezes the source moment under the playhead', async () => {
    await typeInto('Properties/Time/Speed', '0.5');
    await expect.poll(async () => (await layer(clipLayer)).time?.speed).toBe(0.5);
    // The engine's warning reaches the person as it would an agent: the out point now cuts the slowed clip.
    await expect
      .poll(() => page.locator('.toast-warning').allTextContents())
      .toContainEqual(expect.stringContaining('At speed 0.5 the source of'));
    await field('Properties/Time/Reverse').check();
    await expect.poll(async () => (await layer(clipLayer)).time?.speed).toBe(-0.5);
    // The speed field shows the size; reversing keeps it.
    expect(
      await properties()
        .locator('[role="slider"][data-control="Properties/Time/Speed"]')
        .getAttribute('aria-valuenow'),
    ).toBe('0.5');

    await typeInto('Properties/Audio/Level', '-6');
    await expect.poll(async () => (await layer(clipLayer)).audio?.level.value).toBe(-6);

    // Forward at 0.5x, comp frame 30 (1 s) shows the source at 0.5 s: Freeze holds that moment.
    await field('Properties/Time/Reverse').uncheck();
    await expect.poll(async () => (await layer(clipLayer)).time?.speed).toBe(0.5);
    await control.call('ui.set', { control: 'Transport/frame', value: 30 });
    await field('Properties/Time/Freeze').check();
    await expect.poll(async () => (await layer(clipLayer)).time?.freezeAt).toBeCloseTo(0.5, 6);
    await expect.poll(() => field('Properties/Time/Freeze At').count()).toBe(1);
    await typeInto('Properties/Time/Freeze At', '1.25');
    await expect.poll(async () => (await layer(clipLayer)).time?.freezeAt).toBe(1.25);
    await field('Properties/Time/Freeze').uncheck();
    await expect.poll(async () => (await layer(clipLayer)).time?.freezeAt).toBeNull();
    await expect.poll(() => field('Properties/Time/Freeze At').count()).toBe(0);

    // A playhead after the source ends (2 s of clip at 2x: over at comp 1 s) holds its last frame, not its first.
    await run('layer.setTimeMap', { layer: clipLayer, speed: 2 });
    await control.call('ui.set', { control: 'Transport/frame', value: 90 });
    await field('Properties/Time/Freeze').check();
    await expect.poll(async () => (await layer(clipLayer)).time?.freezeAt).toBeCloseTo(2 - 1 / FPS, 6);
    await field('Properties/Time/Freeze').uncheck();
    await run('layer.setTimeMap', { layer: clipLayer, speed: 1 });
  });

  it('takes a typed value as typed or not at all: Enter on the shown value changes nothing, -2 is refused', async () => {
    await run('layer.setTimeMap', { layer: clipLayer, speed: 1.2345 });
    await expect
      .poll(() =>
        properties()
          .locator('[role="slider"][data-control="Properties/Time/Speed"]')
          .getAttribute('aria-valuenow'),
      )
      .toBe('1.23');
    // Clicked and Enter with nothing typed: the 1.23 shown is not written over 1.2345.
    await properties().locator('[role="slider"][data-control="Properties/Time/Speed"]').click();
    await page.keyboard.press('Enter');
    await typeInto('Properties/Audio/Level', '-40');
    await expect.poll(async () => (await layer(clipLayer)).audio?.level.value).toBe(-40);
    expect((await layer(clipLayer)).time?.speed).toBe(1.2345);
    // Out of range: refused with the range, not made 0.01 (a hundred times slower) without a word.
    await typeInto('Properties/Time/Speed', '-2');
    await expect
      .poll(() => page.locator('.toast:not(.toast-warning)').allTextContents())
      .toContainEqual(expect.stringContaining('takes a number from 0.01 to 100; "-2" was not set'));
    // The field's own unit may follow the number; a hexadecimal is not a number a person types.
    await typeInto('Properties/Audio/Level', '-12 dB');
    await expect.poll(async () => (await layer(clipLayer)).audio?.level.value).toBe(-12);
    await typeInto('Properties/Time/Speed', '0x2');
    await expect
      .poll(() => page.locator('.toast:not(.toast-warning)').allTextContents())
      .toContainEqual(expect.stringContaining('"0x2" was not set'));
    await typeInto('Properties/Time/Speed', 'fast');
    await expect
      .poll(() => page.locator('.toast:not(.toast-warning)').allTextContents())
      .toContainEqual(expect.stringContaining('"fast" was not set'));
    expect((await layer(clipLayer)).time?.speed).toBe(1.2345);
    // Dismissed, as a person would: the toasts sit over the timeline the next test drags on.
    const dismiss = page.getByRole('button', { name: 'Dismiss message' });
    while ((await dismiss.count()) > 0)
      await dismiss
        .first()
        .click({ timeout: 2000 })
        .catch(() => undefined);
    await run('layer.setTimeMap', { layer: clipLayer, speed: 1 });
    await run('property.set', { layer: clipLayer, property: 'audio.level', value: -6 });
  });

  it('sets and lists the Time and Audio controls for an agent, and refuses a value of the wrong type', async () => {
    const set = (path: string, value: unknown) =>
      control.call<{ value: unknown }>('ui.set', { control: path, value });
    expect((await set('Properties/Time/Speed', 2)).value).toBe(2);
    expect((await layer(clipLayer)).time?.speed).toBe(2);
    expect((await set('properties/time/loop', true)).value).toBe(true);
    expect((await set('Properties/Audio/Level', -12)).value).toBe(-12);
    expect((await layer(clipLayer)).audio?.level.value).toBe(-12);
    expect((await set('Properties/Audio/Stream', '1')).value).toBe('1');
    await expect(set('Properties/Audio/Mute', 'loud')).rejects.toMatchObject({
      data: { code: 'bad_argument' },
    });
    await expect(set('Properties/Audio/Stream', '7')).rejects.toMatchObject({
      data: { code: 'bad_argument' },
    });
    // The speed is a size, as on screen: a negative one is Reverse's to set, and is refused, changing nothing.
    await expect(set('Properties/Time/Speed', -2)).rejects.toMatchObject({ data: { code: 'bad_argument' } });
    expect((await layer(clipLayer)).time?.speed).toBe(2);

    const { controls } = await control.call<{ controls: Array<{ path: string; type: string }> }>(
      'ui.control',
      {
        action: 'listControls',
      },
    );
    const paths = controls.map((c) => c.path);
    for (const p of ['Properties/Time/Speed', 'Properties/Audio/Level', 'Properties/Audio/Mute'])
      expect(paths).toContain(p);
    expect(controls.find((c) => c.path === 'Properties/Audio/Stream')?.type).toBe('enum');
  });

  it('shows no Time or Audio settings for a still', async () => {
    await page.locator('[data-panel="Layers"]').getByText('Logo', { exact: true }).click();
    await expect.poll(() => properties().locator('.panel-subtitle').textContent()).toBe('Logo');
    expect(await properties().locator('section[aria-label="Time"]').count()).toBe(0);
    expect(await properties().locator('section[aria-label="Audio"]').count()).toBe(0);
    await expect(
      control.call('ui.set', { control: 'Properties/Time/Speed', value: 2 }),
    ).rejects.toMatchObject({ data: { code: 'not_found' } });
    await page.locator('[data-panel="Layers"]').getByText('Interview', { exact: true }).click();
  });

  it("trims the clip's in and out points by dragging its bar's ends, to whole frames, and no further than the clip", async () => {
    await run('layer.setTimeMap', { layer: clipLayer, speed: 1, loop: false, freezeAt: null });
    await run('layer.setTiming', { layer: clipLayer, startTime: 0, inPoint: 0, outPoint: 2 });
    const bar = page.getByRole('slider', { name: 'Timing of Interview: drag to move it in time' });
    await expect.poll(() => bar.getAttribute('aria-valuetext')).toBe('0.00s to 2.00s');
    const inHandle = page.getByRole('slider', { name: 'In point of Interview: drag to trim' });
    const box = (await inHandle.boundingBox())!;
    const barBox = (await bar.boundingBox())!;
    const pxPerSecond = barBox.width / 2;
    const y = box.y + box.height / 2;

    // Half a second to the right: the in point moves, the start and out point stay.
    await page.mouse.move(box.x + 2, y);
    await page.mouse.down();
    await page.mouse.move(box.x + 2 + pxPerSecond * 0.5, y, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => (await layer(clipLayer)).inPoint).toBeGreaterThan(0.3);
    const trimmed = await layer(clipLayer);
    expect(trimmed.inPoint).toBeCloseTo(0.5, 1);
    expect(Math.abs(trimmed.inPoint * FPS - Math.round(trimmed.inPoint * FPS))).toBeLessThan(1e-6);
    expect(trimmed.startTime).toBe(0);
    expect(trimmed.outPoint).toBe(2);

    // The out point dragged far past the clip's end stops at its end (2 s of source at speed 1).
    const outHandle = page.getByRole('slider', { name: 'Out point of Interview: drag to trim' });
    const outBox = (await outHandle.boundingBox())!;
    await page.mouse.move(outBox.x + outBox.width - 2, y);
    await page.mouse.down();
    await page.mouse.move(outBox.x + pxPerSecond * 1.5, y, { steps: 5 });
    await page.mouse.up();
    // Nothing to change (already at the end): then a drag back in by a quarter second.
    expect((await layer(clipLayer)).outPoint).toBe(2);
    await page.mouse.move(outBox.x + outBox.width - 2, y);
    await page.mouse.down();
    await page.mouse.move(outBox.x + outBox.width - 2 - pxPerSecond * 0.25, y, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => (await layer(clipLayer)).outPoint).toBeLessThan(2);
    expect((await layer(clipLayer)).outPoint).toBeCloseTo(1.75, 1);
    expect((await layer(clipLayer)).inPoint).toBeCloseTo(0.5, 1);

    // Retimed so that the out point (1.75 s) is past the source's end (2 s at 2x: 1 s): a drag outward never
    // pulls it back in to that end.
    await run('layer.setTimeMap', { layer: clipLayer, speed: 2 });
    const before = (await layer(clipLayer)).outPoint;
    const outNow = (await outHandle.boundingBox())!;
    await page.mouse.move(outNow.x + outNow.width - 2, y);
    await page.mouse.down();
    await page.mouse.move(outNow.x + outNow.width - 2 + pxPerSecond * 0.5, y, { steps: 5 });
    await page.mouse.up();
    await new Promise((r) => setTimeout(r, 300));
    expect((await layer(clipLayer)).outPoint).toBe(before);

    // Looping, the source never ends: the composition (4 s) is the bound.
    await run('layer.setTimeMap', { layer: clipLayer, speed: 1, loop: true });
    const loopOut = (await outHandle.boundingBox())!;
    await page.mouse.move(loopOut.x + loopOut.width - 2, y);
    await page.mouse.down();
    await page.mouse.move(loopOut.x + pxPerSecond * 10, y, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => (await layer(clipLayer)).outPoint).toBe(4);

    // Longer than the composition (looping to 6 s in a 4 s one), as a music bed under a shorter cut: the bar ends
    // open at the composition's end with its out handle there to grab; a second in, the out point is 3 s.
    await run('layer.setTiming', { layer: clipLayer, outPoint: 6 });
    await expect.poll(() => bar.getAttribute('class')).toContain('runs-past');
    const past = (await outHandle.boundingBox())!;
    expect(Math.abs(past.x + past.width - (barBox.x + 4 * pxPerSecond))).toBeLessThan(3);
    await page.mouse.move(past.x + past.width - 2, y);
    await page.mouse.down();
    await page.mouse.move(past.x + past.width - 2 - pxPerSecond, y, { steps: 5 });
    await page.mouse.up();
    await expect.poll(async () => (await layer(clipLayer)).outPoint).toBe(3);

    // Dragged far to the right, the layer keeps its first frame inside the composition, not lost past its end.
    const centre = barBox.x + 1.75 * pxPerSecond;
    await page.mouse.move(centre, y);
    await page.mouse.down();
    await page.mouse.move(centre + pxPerSecond * 20, y, { steps: 8 });
    await page.mouse.up();
    await expect.poll(async () => (await layer(clipLayer)).inPoint).toBeGreaterThan(1);
    expect((await layer(clipLayer)).inPoint).toBeCloseTo(4 - 1 / FPS, 6);
    expect((await bar.boundingBox())!.width).toBeGreaterThan(0);
    await run('layer.setTimeMap', { layer: clipLayer, loop: false });
    await run('layer.setTiming', { layer: clipLayer, startTime: 0, inPoint: 0, outPoint: 2 });
  });

  it('marks footage whose file went away in the Project panel, and relinks it to the file where it is now', async () => {
    // Named after its file, as file.import names footage.
    const item = page.locator('[data-panel="Project"] [role="treeitem"][aria-label^="Footage interview"]');
    await expect.poll(() => item.getAttribute('aria-label')).toBe('Footage interview');
    // A frame that shows the clip, drawn from the file while it is there.
    await control.call('ui.set', { control: 'Transport/frame', value: 30 });
    expect(await page.locator('[data-panel="Viewer"] .warning').count()).toBe(0);
    const moved = join(dir, 'moved.mp4');
    await rename(clipPath, moved);
    // No edit: the panel asks again on its own.
    await expect
      .poll(() => item.getAttribute('aria-label'), { timeout: 10_000 })
      .toBe('Footage interview (missing)');
    // The viewer's frame, drawn before from the file, is drawn again without it: the placeholder and its warning.
    await expect
      .poll(() => page.locator('[data-panel="Viewer"] .warning').count(), { timeout: 10_000 })
      .toBe(1);
    await page.getByRole('button', { name: 'Relink interview' }).click();
    await page.getByLabel('New file for interview').fill(moved);
    // What was typed stays when the focus goes elsewhere; Apply relinks it.
    await page.locator('[data-panel="Viewer"]').click();
    expect(await page.getByLabel('New file for interview').inputValue()).toBe(moved);
    await page.getByRole('button', { name: 'Apply relink of interview' }).click();
    await expect.poll(() => item.getAttribute('aria-label'), { timeout: 10_000 }).toBe('Footage interview');
    const view = await control.call<View>('session.view');
    expect(view.doc.items.find((i) => i.id === clipItem)?.path).toBe(moved);
    await expect
      .poll(() => page.locator('[data-panel="Viewer"] .warning').count(), { timeout: 10_000 })
      .toBe(0);
  });
});
