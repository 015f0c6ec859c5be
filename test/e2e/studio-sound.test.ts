/// <reference lib="dom" />
/**
 * The studio's sound, against a real `effectcraft-cli app`: the composition's mix served as a WAV (measured back
 * sample by sample: silence before the layer starts, the tone at its level, an edit's new level), kept while
 * the sound is unchanged (304), and played by the page in a real Chromium along with the frames: from the
 * playhead's time, switchable, swapped after an edit, silent for a composition without sound.
 */
import { copyFile, mkdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SOUND_PATH, SOUND_WARNINGS_HEADER } from '../../src/studio/protocol.js';
import { dbOf, decodeSound, frequency, RATE, rms, tone } from '../helpers/audio.js';
import { describeWithChromium, openStudio } from '../helpers/chromium.js';
import { hasFfmpeg } from '../helpers/ffmpeg.js';
import type { ControlClient } from '../helpers/studio-browser.js';
import { StudioApp } from '../helpers/studio-browser.js';
import { tempDir } from '../helpers/tmp.js';

const FPS = 30;
/** The tone's RMS at 0 dB: a sine of amplitude 0.5. */
const FULL = 0.5 / Math.SQRT2;

let dir: string;
let app: StudioApp;
let control: ControlClient;
let main: string;
let quiet: string;
let toneLayer: string;

async function run<T = Record<string, unknown>>(id: string, params: unknown): Promise<T> {
  const r = await control.call<{ result: T }>('engine.execute', { id, params });
  return r.result;
}

/** A signed-in cookie for plain HTTP requests: a fresh one-time link, redeemed without following it. */
async function signIn(): Promise<string> {
  const { url } = await control.call<{ url: string }>('studio.link');
  const res = await fetch(url, { redirect: 'manual' });
  expect(res.status).toBe(303);
  return res.headers.get('set-cookie')!.split(';')[0]!;
}

async function getSound(cookie: string | null, comp: string, etag?: string): Promise<globalThis.Response> {
  const url = new URL(SOUND_PATH, `http://127.0.0.1:${app.port}`);
  url.searchParams.set('comp', comp);
  return fetch(url, {
    headers: { ...(cookie && { cookie }), ...(etag && { 'if-none-match': etag }) },
  });
}

/** The WAV's left side as float samples (decoded by ffmpeg from the file the app sent). */
async function samplesOf(res: globalThis.Response): Promise<Float32Array> {
  const file = join(dir, `sound-${Date.now()}.wav`);
  await writeFile(file, Buffer.from(await res.arrayBuffer()));
  return decodeSound(file);
}

// Skipped only where Chromium or ffmpeg is missing; CI installs both and fails when either is.
const describeIfTools = hasFfmpeg ? describeWithChromium : describe.skip;

describeIfTools("the studio's sound", () => {
  beforeAll(async () => {
    dir = await tempDir();
    ({ app, control } = await StudioApp.start(dir));
    const toneFile = await tone(dir, { freq: 440, seconds: 4 });
    main = (
      await run<{ id: string }>('comp.new', {
        name: 'Main',
        width: 320,
        height: 180,
        frameRate: FPS,
        duration: 3,
      })
    ).id;
    const footage = await run<{ id: string }>('file.import', { path: toneFile });
    toneLayer = (await run<{ id: string }>('layer.addFootage', { comp: main, footage: footage.id })).id;
    await run('layer.setTiming', { layer: toneLayer, startTime: 1 });
    await run('property.set', { layer: toneLayer, property: 'audio.level', value: -6 });
    quiet = (
      await run<{ id: string }>('comp.new', {
        name: 'Quiet',
        width: 320,
        height: 180,
        frameRate: FPS,
        duration: 2,
      })
    ).id;
    await run('layer.addSolid', { comp: quiet, color: '#224488' });
    await run('comp.setActive', { comp: main });
  });

  afterAll(async () => {
    control?.close();
    await app?.stop();
  });

  it("serves the composition's mix as a WAV, the same sound a render mixes, and 304 while it is unchanged", async () => {
    const cookie = await signIn();
    const res = await getSound(cookie, main);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('audio/wav');
    const etag = res.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    const left = await samplesOf(res);
    expect(left.length).toBe(3 * RATE);
    // Silence until the layer starts at 1 s; then the tone at -6 dB.
    expect(rms(left, 0, 0.95)).toBeLessThan(1e-4);
    expect(frequency(left, 1.1, 2.9)).toBeCloseTo(440, 0);
    expect(dbOf(rms(left, 1.1, 2.9), FULL)).toBeCloseTo(-6, 0);

    // An edit that changes no sound keeps the mix; one that does makes another.
    await run('layer.addText', { comp: main, text: 'Title' });
    expect((await getSound(cookie, main, etag)).status).toBe(304);
    await run('property.set', { layer: toneLayer, property: 'audio.level', value: -12 });
    const louder = await getSound(cookie, main, etag);
    expect(louder.status).toBe(200);
    expect(louder.headers.get('etag')).not.toBe(etag);
    expect(dbOf(rms(await samplesOf(louder), 1.1, 2.9), FULL)).toBeCloseTo(-12, 0);
    await run('edit.undo', {});

    // Nothing heard: no content. Unknown composition: the engine's not_found. Not signed in: 401.
    expect((await getSound(cookie, quiet)).status).toBe(204);
    const missing = await getSound(cookie, 'NoSuchComp');
    expect(missing.status).toBe(404);
    expect(((await missing.json()) as { code: string }).code).toBe('not_found');
    expect((await getSound(null, main)).status).toBe(401);
  });

  it('mixes again when a sound file is replaced on disk (the same document, another sound)', async () => {
    const cookie = await signIn();
    // The suite's folder went with the first test (tmp.ts removes a test's folders after it); samplesOf uses it.
    await mkdir(dir, { recursive: true });
    const path = await tone(await tempDir(), { freq: 440, seconds: 2 });
    const comp = (
      await run<{ id: string }>('comp.new', {
        name: 'Swap',
        width: 320,
        height: 180,
        frameRate: FPS,
        duration: 2,
      })
    ).id;
    try {
      const footage = await run<{ id: string }>('file.import', { path });
      await run('layer.addFootage', { comp, footage: footage.id });
      const first = await getSound(cookie, comp);
      const etag = first.headers.get('etag')!;
      expect(frequency(await samplesOf(first), 0.1, 1.9)).toBeCloseTo(440, 0);
      // Another take of the same length at the same path: nothing in the document changes.
      await copyFile(await tone(await tempDir(), { freq: 660, seconds: 2 }), path);
      const again = await getSound(cookie, comp, etag);
      expect(again.status).toBe(200);
      expect(again.headers.get('etag')).not.toBe(etag);
      expect(frequency(await samplesOf(again), 0.1, 1.9)).toBeCloseTo(660, 0);
    } finally {
      await run('comp.setActive', { comp: main });
    }
  });

  it('says which files it left out and why: missing (no_such_file) or changed since import (unsupported_format)', async () => {
    const cookie = await signIn();
    await mkdir(dir, { recursive: true });
    const folder = await tempDir();
    const gone = await tone(folder, { freq: 440, seconds: 2 });
    const other = await tempDir();
    const shorter = await tone(await tempDir(), { freq: 550, seconds: 2 });
    const comp = (
      await run<{ id: string }>('comp.new', {
        name: 'Lost',
        width: 320,
        height: 180,
        frameRate: FPS,
        duration: 2,
      })
    ).id;
    try {
      for (const path of [gone, shorter]) {
        const footage = await run<{ id: string }>('file.import', { path });
        await run('layer.addFootage', { comp, footage: footage.id });
      }
      await rename(gone, join(other, 'aside.wav'));
      // Re-exported at 1 s under the same name: not the sound its import recorded.
      await copyFile(await tone(other, { freq: 550, seconds: 1 }), shorter);
      const res = await getSound(cookie, comp);
      expect(res.status).toBe(200);
      const warnings = JSON.parse(decodeURIComponent(res.headers.get(SOUND_WARNINGS_HEADER)!)) as Array<{
        code: string;
        message: string;
      }>;
      // Until 2026-12-07 the header held sentences alone, and the page called each no_such_file.
      expect(warnings.map((w) => w.code).sort()).toEqual(['no_such_file', 'unsupported_format']);
      expect(warnings.find((w) => w.code === 'unsupported_format')!.message).toMatch(/Its sound is left out/);
    } finally {
      await run('comp.setActive', { comp: main });
    }
  });

  it('plays the sound along with the frames, switchable, swapped after an edit, silent where nothing is heard', async () => {
    const { url } = await control.call<{ url: string }>('studio.link');
    const page: Page = await openStudio(url);
    const sounds: number[] = [];
    page.on('response', (r: Response) => {
      if (new URL(r.url()).pathname === SOUND_PATH) sounds.push(r.status());
    });
    const transport = page.locator('[data-panel="Transport"]');
    const state = () => transport.getAttribute('data-sound');

    await page.getByRole('button', { name: 'Play' }).click();
    await expect.poll(state, { timeout: 15_000 }).toBe('playing');
    expect(sounds).toEqual([200]);
    expect(await page.evaluate(() => typeof AudioContext)).toBe('function');

    // The sound is where the frames are: the playhead's time within a frame or two (each read at one moment).
    for (let i = 0; i < 5; i++) {
      const at = await transport.evaluate((el) => ({
        sound: Number(el.getAttribute('data-sound-time')),
        frame: Number(el.querySelector('[data-control="Transport/frame"]')!.getAttribute('aria-valuenow')),
      }));
      const apart = Math.abs(at.sound - at.frame / FPS);
      expect(Math.min(apart, 3 - apart)).toBeLessThan(0.1);
      await page.waitForTimeout(200);
    }

    // Off and on again, as a person clicks it; the choice is the UI tools' Transport/sound too.
    await page.locator('[data-control="Transport/sound"]').click();
    await expect.poll(state).toBe('off');
    expect(await transport.getAttribute('data-sound-time')).toBeNull();
    await page.locator('[data-control="Transport/sound"]').click();
    await expect.poll(state).toBe('playing');

    // An edit that changes no sound asks again and keeps the sound (304); a new level fetches the new mix.
    const before = sounds.length;
    await run('layer.addText', { comp: main, text: 'Another title' });
    await expect.poll(() => sounds.slice(before)).toEqual([304]);
    await run('property.set', { layer: toneLayer, property: 'audio.level', value: -3 });
    await expect.poll(() => sounds.slice(before)).toEqual([304, 200]);
    expect(await state()).toBe('playing');

    // Another composition, nothing heard in it.
    await run('comp.setActive', { comp: quiet });
    await expect.poll(state).toBe('silent');
    await run('comp.setActive', { comp: main });
    await expect.poll(state).toBe('playing');

    await page.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(state).toBe('stopped');
    expect(await transport.getAttribute('data-sound-time')).toBeNull();
    await page.close();
  });

  it('says once, not after every edit, that a composition is too long for its sound to play along', async () => {
    const path = await tone(await tempDir(), { freq: 440, seconds: 2 });
    const long = (
      await run<{ id: string }>('comp.new', {
        name: 'Film',
        width: 320,
        height: 180,
        frameRate: 1,
        duration: 1500,
      })
    ).id;
    try {
      const footage = await run<{ id: string }>('file.import', { path });
      const layer = (await run<{ id: string }>('layer.addFootage', { comp: long, footage: footage.id })).id;
      const { url } = await control.call<{ url: string }>('studio.link');
      const page: Page = await openStudio(url);
      const transport = page.locator('[data-panel="Transport"]');
      await page.getByRole('button', { name: 'Play' }).click();
      await expect.poll(() => transport.getAttribute('data-sound'), { timeout: 15_000 }).toBe('failed');
      const told = () =>
        page.getByRole('alert').filter({ hasText: 'played along only up to 20 minutes' }).count();
      await expect.poll(told).toBe(1);
      // Each edit asks for the mix again, and is refused again: still one message.
      for (const level of [-1, -2, -3]) {
        await run('property.set', { layer, property: 'audio.level', value: level });
        await page.waitForTimeout(300);
      }
      expect(await told()).toBe(1);
      await page.close();
    } finally {
      await run('comp.setActive', { comp: main });
    }
  });
});
