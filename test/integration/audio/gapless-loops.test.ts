// Sound whose stated length counts what its decoder drops loops without a gap: an MP3 from LAME (ffmpeg's
// libmp3lame, most encoders) stores whole 1152-sample frames, the encoder's delay before the sound and padding
// after it named in its Info tag; an Ogg Opus file states its length by granule positions, which count the
// pre-skip (RFC 7845). Imported at their stated lengths, a 2 s tone at 44.1 kHz MP3 was 2.037551 s (a looped
// music bed had 36.6 ms of silence at every repeat, drifting off the beat), at 8 kHz 2.16 s, and an Ogg Opus
// 2.0065 s (6.5 ms of silence each repeat). Import records what the decoder gives.
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import type { FootageItem } from '../../../src/engine/index.js';
import { decodeSound, rms, tone } from '../../helpers/audio.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';
import { renderTo, setTimeMap, soundComp, soundSession } from './sound-helpers.js';

describe('sound with an encoder delay and padding', () => {
  itWithFfmpeg.each([
    ['mp3', 44_100],
    ['mp3', 8_000],
    ['opus', 48_000],
  ])('an %s at %i Hz lasts what its decoder gives, and loops without a gap', async (ext, rate) => {
    const dir = await tempDir();
    const file = await tone(dir, { freq: 1000, seconds: 2, rate, ext });
    const s = soundSession();
    const comp = await soundComp(s, 25, 6);
    const { id: footage } = await run<{ id: string }>(s, 'file.import', { path: file });
    const { id: layer } = await run<{ id: string }>(s, 'layer.addFootage', { comp, footage });
    const item = s.engine.document.items.find((i) => i.id === footage) as FootageItem;
    expect(item.media!.audio!.duration).toBeCloseTo(2, 4);
    expect(item.media!.duration).toBeCloseTo(2, 4);
    await setTimeMap(s, dir, layer, { speed: 1, loop: true, freezeAt: null });
    await run(s, 'layer.setTiming', { comp, layer, inPoint: 0, outPoint: 6 });
    const out = join(dir, 'bed.wav');
    expect((await renderTo(s, comp, out)).completed).toBe(1);
    const sound = await decodeSound(out);
    // The tone (RMS 0.35) in every 2 ms of the 6 s, the repeats' joins at 2 and 4 s included.
    const quiet: number[] = [];
    for (let t = 0.01; t < 5.98; t += 0.002) if (rms(sound, t, t + 0.002) < 0.2) quiet.push(t);
    expect(quiet).toEqual([]);
  });
});
