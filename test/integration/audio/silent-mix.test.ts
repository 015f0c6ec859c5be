// An output that should carry sound but has none to carry says so in the item's result: a WAV of a composition
// whose only sound layer is muted (or frozen, or outside the item's frames) is silence, and an MP4 of it has no
// audio stream; both ended `done` without a word. A video of a composition with no sound layer says nothing.
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { decodeSound, tone } from '../../helpers/audio.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';
import { addSound, renderTo, soundComp, soundSession } from './sound-helpers.js';

describe('an output with nothing to hear', () => {
  itWithFfmpeg('a muted, a frozen and a late sound layer: the WAV and the MP4 warn, naming it', async () => {
    const dir = await tempDir();
    const s = soundSession();
    const a = await tone(dir, { freq: 300, seconds: 2, amplitude: 0.5 });
    const muted = await soundComp(s, 10, 1);
    const layer = await addSound(s, muted, a);
    await run(s, 'layer.setAudioMuted', { comp: muted, layer, muted: true });
    const frozen = await soundComp(s, 10, 1);
    const f = await addSound(s, frozen, a);
    await run(s, 'layer.setTimeMap', { comp: frozen, layer: f, freezeAt: 0.5 });
    const late = await soundComp(s, 10, 1);
    await addSound(s, late, a, { startTime: 5 });
    for (const comp of [muted, frozen, late]) {
      const wav = await renderTo(s, comp, join(dir, `${comp}.wav`));
      expect(wav.items[0]!.status).toBe('done');
      const sound = await decodeSound(join(dir, `${comp}.wav`));
      expect(sound.reduce((m, v) => Math.max(m, Math.abs(v)), 0)).toBe(0);
      expect(wav.items[0]!.warnings?.join('\n')).toMatch(/is 1 s of silence: .*"tone/);
      const mp4 = await renderTo(s, comp, join(dir, `${comp}.mp4`));
      expect(mp4.items[0]!.status).toBe('done');
      expect(mp4.items[0]!.warnings?.join('\n')).toMatch(/mp4 has no audio stream: .*"tone/);
      // The way out for a video meant to be silent, in both the command's and the CLI's words.
      expect(mp4.items[0]!.warnings?.join('\n')).toContain(
        'renderQueue.add {audio: false} (effectcraft-cli render --no-audio)',
      );
    }
  });

  // Heard layers whose sound is silence (a silent recording, a level of -96 dB) were mixed, metered only for
  // clipping, and ended done without a word: the mix's meter now hears whether anything rose above -90 dBFS.
  itWithFfmpeg(
    'a heard layer that plays silence (a silent file, -96 dB): the WAV and the MP4 warn',
    async () => {
      const dir = await tempDir();
      const s = soundSession();
      const silentFile = await soundComp(s, 10, 1);
      await addSound(s, silentFile, await tone(dir, { freq: 200, seconds: 2, amplitude: 0 }));
      const quiet = await soundComp(s, 10, 1);
      const layer = await addSound(s, quiet, await tone(dir, { freq: 300, seconds: 2, amplitude: 0.5 }));
      await run(s, 'property.set', { comp: quiet, layer, property: 'audio.level', value: -96 });
      for (const [comp, file] of [
        [silentFile, 'tone-200-2.wav'],
        [quiet, 'tone-300-2.wav'],
      ] as const) {
        const wav = await renderTo(s, comp, join(dir, `${comp}.wav`));
        expect(wav.items[0]!.status).toBe('done');
        const sound = await decodeSound(join(dir, `${comp}.wav`));
        expect(sound.reduce((m, v) => Math.max(m, Math.abs(v)), 0)).toBe(0);
        expect(wav.items[0]!.warnings?.join('\n')).toMatch(
          new RegExp(`is 1 s of silence from end to end: .*"${file}"`),
        );
        const mp4 = await renderTo(s, comp, join(dir, `${comp}.mp4`));
        expect(mp4.items[0]!.status).toBe('done');
        expect(mp4.items[0]!.warnings?.join('\n')).toMatch(
          /mp4 has 1 s of sound that is silence from end to end/,
        );
      }
    },
  );

  itWithFfmpeg('a heard layer, audio: false, or a picture-only video: no warning', async () => {
    const dir = await tempDir();
    const s = soundSession();
    const a = await tone(dir, { freq: 300, seconds: 2, amplitude: 0.5 });
    const heard = await soundComp(s, 10, 1);
    await addSound(s, heard, a);
    for (const out of ['heard.wav', 'heard.mp4']) {
      const r = await renderTo(s, heard, join(dir, out));
      expect(r.items[0]).not.toHaveProperty('warnings');
    }
    const off = await renderTo(s, heard, join(dir, 'off.mp4'), { audio: false });
    expect(off.items[0]).not.toHaveProperty('warnings');
    const title = await soundComp(s, 10, 1);
    await run(s, 'layer.addText', { comp: title, text: 'Title' });
    const still = await renderTo(s, title, join(dir, 'title.mp4'));
    expect(still.items[0]).not.toHaveProperty('warnings');
    // A WAV of it is silence all the same, and says so.
    const wav = await renderTo(s, title, join(dir, 'title.wav'));
    expect(wav.items[0]!.warnings?.join('\n')).toMatch(/is 1 s of silence: .*no layer with sound/);
    // Nothing to unmute or move: adding a layer with sound is the one remedy.
    expect(wav.items[0]!.warnings?.join('\n')).toMatch(
      /no layer with sound\. Add a footage layer with sound/,
    );
    expect(wav.items[0]!.warnings?.join('\n')).not.toContain('Unmute');
  });

  itWithFfmpeg(
    'freezing a sound layer warns at once that it is not heard; a video layer does not',
    async () => {
      const dir = await tempDir();
      const s = soundSession();
      const comp = await soundComp(s, 10, 1);
      const bed = await addSound(s, comp, await tone(dir, { freq: 300, seconds: 2 }));
      const frozen = await s.engine.execute('layer.setTimeMap', { comp, layer: bed, freezeAt: 0.5 });
      expect(frozen.ok && frozen.warnings?.join('\n')).toMatch(
        /plays sound only, and a frozen sound is silence/,
      );
      // Moving the freeze elsewhere says nothing new; turning it off and on again warns again.
      const moved = await s.engine.execute('layer.setTimeMap', { comp, layer: bed, freezeAt: 0.2 });
      expect(moved.ok && moved.warnings).toBeFalsy();
      await run(s, 'layer.setTimeMap', { comp, layer: bed, freezeAt: null });
      const again = await s.engine.execute('layer.setTimeMap', { comp, layer: bed, freezeAt: 0.1 });
      expect(again.ok && again.warnings?.length).toBe(1);
      const { execFileSync } = await import('node:child_process');
      const clip = join(dir, 'clip.mp4');
      execFileSync('ffmpeg', [
        ...['-hide_banner', '-loglevel', 'error', '-y'],
        ...['-f', 'lavfi', '-i', 'color=c=red:s=32x32:r=10:d=2'],
        ...['-f', 'lavfi', '-i', 'aevalsrc=0.5*sin(2*PI*330*t):s=48000:d=2'],
        ...['-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', clip],
      ]);
      const video = await addSound(s, comp, clip);
      const still = await s.engine.execute('layer.setTimeMap', { comp, layer: video, freezeAt: 0.5 });
      expect(still.ok && still.warnings).toBeFalsy();
    },
  );
});
