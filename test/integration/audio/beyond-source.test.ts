// layer.setTiming may time a footage layer past its source (a 4 s voice-over given an out point of 30 s, or an in
// point after its end): it shows and plays nothing there. A speed change and a relink to a shorter file already
// said so; setTiming said nothing, and the first sign was a render silent where the voice was meant to be.
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { decodeSound, rms, tone } from '../../helpers/audio.js';
import { tempDir } from '../../helpers/tmp.js';
import { addSound, renderTo, soundComp, soundSession } from './sound-helpers.js';

describe('a layer timed past its source', () => {
  itWithFfmpeg('warns with the out point that fits, and the render is silent where it said', async () => {
    const dir = await tempDir();
    const s = soundSession();
    const comp = await soundComp(s, 10, 6);
    const layer = await addSound(s, comp, await tone(dir, { freq: 300, seconds: 2 }));
    const timing = async (params: Record<string, unknown>) => {
      const r = await s.engine.execute('layer.setTiming', { comp, layer, ...params });
      expect(r.ok).toBe(true);
      return r.ok ? (r.warnings ?? []) : [];
    };
    const [longer] = await timing({ outPoint: 5 });
    expect(longer).toContain(
      'plays from 0 s to 2 s of the composition: it shows and plays nothing for its last 3 s',
    );
    expect(longer).toContain('layer.setTiming {outPoint: 2}');
    const r = await renderTo(s, comp, join(dir, 'long.wav'));
    expect(r.items[0]!.status).toBe('done');
    const sound = await decodeSound(join(dir, 'long.wav'));
    expect(rms(sound, 0.2, 1.8)).toBeGreaterThan(0.1);
    expect(rms(sound, 2.1, 5)).toBe(0);

    const [after] = await timing({ inPoint: 3 });
    expect(after).toContain('now lasts from 3 s to 5 s');
    expect(after).toContain('it shows and plays nothing at all');
    // The remedy names all three times: a start time alone would slide the in and out points with it.
    expect(after).toContain('layer.setTiming {startTime: 3, inPoint: 3, outPoint: 5}');
    const [before] = await timing({ startTime: 1, inPoint: 0.5, outPoint: 3 });
    expect(before).toContain('nothing for its first 0.5 s');

    // Within the source, looping, frozen, or cut by the composition's end: quiet.
    expect(await timing({ startTime: 0, inPoint: 0.5, outPoint: 2 })).toEqual([]);
    await s.engine.execute('layer.setTimeMap', { comp, layer, loop: true });
    expect(await timing({ outPoint: 6 })).toEqual([]);
  });
});
