// Files with several audio streams (a second language, a commentary): the import records them all, a layer
// plays the first unless told (layer.setAudioStream, layer.addFootage's audioStream), two layers of one file
// can play different streams in one mix, and a stream the file lacks is refused naming those it has. Measured
// from decoded samples: each stream is a tone of its own frequency. The files are made by ffmpeg here.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect } from 'vitest';
import type { FootageItem } from '../../../src/engine/index.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { decodeSound, frequency, rms } from '../../helpers/audio.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';
import { renderTo, soundComp, soundSession } from './sound-helpers.js';
import type { Session } from '../../../src/session.js';

const exec = promisify(execFile);

/** A 2 s Matroska file with two audio streams: 440 Hz (no tags) and 880 Hz (French, "Commentary"). */
async function twoStreams(dir: string): Promise<string> {
  const out = join(dir, 'two.mkv');
  const sine = (f: number) => ['-f', 'lavfi', '-i', `sine=frequency=${f}:sample_rate=48000:duration=2`];
  await exec('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', ...sine(440), ...sine(880)],
    ...['-map', '0:a', '-map', '1:a', '-c:a', 'pcm_s16le'],
    ...['-metadata:s:a:1', 'language=fra', '-metadata:s:a:1', 'title=Commentary', out],
  ]);
  return out;
}

const layerOf = (s: Session, id: string) =>
  s.engine.document.items
    .flatMap((i) => (i.type === 'composition' ? i.layers : []))
    .find((l) => l.id === id)!;

describe('footage with several audio streams', () => {
  itWithFfmpeg('records them, plays the first by default and the chosen one when told', async () => {
    const dir = await tempDir();
    const s = soundSession();
    const comp = await soundComp(s, 10, 2);
    const { id: footage } = await run<{ id: string }>(s, 'file.import', { path: await twoStreams(dir) });
    const item = s.engine.document.items.find((i): i is FootageItem => i.id === footage)!;
    expect(item.media?.audioStreams).toHaveLength(2);
    expect(item.media?.audioStreams?.[1]).toMatchObject({
      channels: 1,
      language: 'fra',
      title: 'Commentary',
    });
    const { id: layer } = await run<{ id: string }>(s, 'layer.addFootage', { comp, footage });
    const out = join(dir, 'mix.wav');

    await renderTo(s, comp, out);
    expect(frequency(await decodeSound(out), 0.2, 1.8)).toBeCloseTo(440, 0);

    // One undo step; the first stream is recorded as no field at all (as layers always were).
    await run(s, 'layer.setAudioStream', { comp, layer, stream: 1 });
    expect(layerOf(s, layer).audio?.stream).toBe(1);
    await run(s, 'edit.undo');
    expect(layerOf(s, layer).audio?.stream).toBeUndefined();
    await run(s, 'edit.redo');
    expect(layerOf(s, layer).audio?.stream).toBe(1);
    await renderTo(s, comp, out);
    const second = await decodeSound(out);
    expect(frequency(second, 0.2, 1.8)).toBeCloseTo(880, 0);
    // ffmpeg's sine is at 1/8 of full scale: RMS 0.088, mono on both sides at its own level.
    expect(rms(second, 0.2, 1.8)).toBeCloseTo(0.125 / Math.SQRT2, 2);
    await run(s, 'layer.setAudioStream', { comp, layer, stream: 0 });
    expect(layerOf(s, layer).audio?.stream).toBeUndefined();
  });

  itWithFfmpeg('two layers of one file play different streams in one mix', async () => {
    const dir = await tempDir();
    const s = soundSession();
    const comp = await soundComp(s, 10, 2);
    const { id: footage } = await run<{ id: string }>(s, 'file.import', { path: await twoStreams(dir) });
    // The first stream from 0 to 1 s, the second (added with its stream chosen) from 1 to 2 s.
    const { id: a } = await run<{ id: string }>(s, 'layer.addFootage', { comp, footage });
    await run(s, 'layer.setTiming', { comp, layer: a, outPoint: 1 });
    const { id: b } = await run<{ id: string }>(s, 'layer.addFootage', { comp, footage, audioStream: 1 });
    expect(layerOf(s, b).audio?.stream).toBe(1);
    await run(s, 'layer.setTiming', { comp, layer: b, inPoint: 1 });
    const out = join(dir, 'both.wav');
    await renderTo(s, comp, out);
    const sound = await decodeSound(out);
    expect(frequency(sound, 0.1, 0.9)).toBeCloseTo(440, 0);
    expect(frequency(sound, 1.1, 1.9)).toBeCloseTo(880, 0);
  });

  itWithFfmpeg('refuses a stream the file lacks, naming those it has, and changes nothing', async () => {
    const dir = await tempDir();
    const s = soundSession();
    const comp = await soundComp(s, 10, 2);
    const { id: footage } = await run<{ id: string }>(s, 'file.import', { path: await twoStreams(dir) });
    const { id: layer } = await run<{ id: string }>(s, 'layer.addFootage', { comp, footage });
    const before = JSON.stringify(s.engine.document);
    const r = await s.engine.execute('layer.setAudioStream', { comp, layer, stream: 2 });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('bad_argument');
    expect(r.error.message).toContain('has no audio stream 2');
    expect(r.error.message).toContain('1 (pcm_s16le, 1 channel, fra, "Commentary")');
    expect(r.error.remediation).toContain('from 0 to 1');
    const add = await s.engine.execute('layer.addFootage', { comp, footage, audioStream: 5 });
    expect(add.ok).toBe(false);
    // A layer without a file's sound has no stream to choose.
    const { id: solid } = await run<{ id: string }>(s, 'layer.addSolid', { comp, color: '#ff0000' });
    const onSolid = await s.engine.execute('layer.setAudioStream', { comp, layer: solid, stream: 0 });
    expect(onSolid.ok || onSolid.error.code).toBe('bad_argument');
    await run(s, 'edit.undo');
    expect(JSON.stringify(s.engine.document)).toBe(before);
  });

  itWithFfmpeg('a relink to a file with fewer streams warns, naming the layer and its stream', async () => {
    const dir = await tempDir();
    const s = soundSession();
    const comp = await soundComp(s, 10, 2);
    const { id: footage } = await run<{ id: string }>(s, 'file.import', { path: await twoStreams(dir) });
    await run(s, 'layer.addFootage', { comp, footage, name: 'Second', audioStream: 1 });
    await run(s, 'layer.addFootage', { comp, footage, name: 'First' });
    const one = join(dir, 'one.wav');
    await exec('ffmpeg', [
      ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
      ...['-i', 'sine=frequency=440:sample_rate=48000:duration=2', one],
    ]);
    const r = await s.engine.execute('footage.relink', { footage, path: one });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.warnings).toContain(
      'The new file has 1 audio stream; "Second" plays its stream 1: a render that hears it fails. Choose a stream from 0 to 0 with layer.setAudioStream.',
    );
    // Relinked back to a file with both: nothing to say.
    const back = await s.engine.execute('footage.relink', { footage, path: await twoStreams(dir) });
    expect(back.ok && (back.warnings ?? []).filter((w) => w.includes('stream'))).toEqual([]);
  });
});
