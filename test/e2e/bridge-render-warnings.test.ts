/**
 * Bridge mode renders in the background (wait:false), so renderQueue.list is the agent's only report of them: an
 * item's warnings (a mix that is silence end to end, footage left unchecked...) must reach it there, not only in
 * the job result a blocking render returns. A real app, a real `mcp --bridge`, a real sound file.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { tone } from '../helpers/audio.js';
import { itWithFfmpeg } from '../helpers/ffmpeg.js';
import { tempDir } from '../helpers/tmp.js';
import { appAndClient, run } from './bridge-helpers.js';

interface Listed {
  id: string;
  status: string;
  warnings?: string[];
}

describe('renders through the bridge', () => {
  itWithFfmpeg("lists a background render's warnings: a WAV of a muted sound is silence", async () => {
    const dir = await tempDir();
    const sound = await tone(dir, { freq: 440, seconds: 1 });
    const { client } = await appAndClient(dir);
    await run(client, 'comp.new', { name: 'Mix', width: 16, height: 16, duration: 1, frameRate: 10 });
    const footage = (await run(client, 'file.import', { path: sound })).body.id as string;
    const layer = (await run(client, 'layer.addFootage', { comp: 'Mix', footage })).body.id as string;
    await run(client, 'layer.setAudioMuted', { comp: 'Mix', layer, muted: true });
    const output = join(dir, 'mix.wav');
    const item = (await run(client, 'renderQueue.add', { comp: 'Mix', output })).body.id as string;
    const started = await run(client, 'renderQueue.render', {});
    expect(started.body).toMatchObject({ started: true });
    const listed = async () =>
      ((await run(client, 'renderQueue.list', {})).body.items as Listed[]).find((i) => i.id === item)!;
    await expect.poll(async () => (await listed()).status, { timeout: 30_000 }).toBe('done');
    expect(existsSync(output)).toBe(true);
    // Until 2026-12-08 only a blocking render's result said so; the bridge's list ended done without a word.
    const { warnings } = await listed();
    expect(warnings).toHaveLength(1);
    expect(warnings![0]).toContain(output);
    expect(warnings![0]).toMatch(/silence/);
  });
});
