// A mix that goes above full scale says so in the item's result (it is summed without normalisation, so two
// loud layers clip), with its peak and where; a mix that stays below says nothing. Measured against the
// samples of the file written: the warning's span is where the decoded WAV sits at full scale.
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { decodeSound, RATE, tone } from '../../helpers/audio.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';
import { addSound, renderTo, soundComp, soundSession } from './sound-helpers.js';

const PEAK = /peak \+(\d+\.\d) dBFS\) from (\d+\.\d\d) s to (\d+\.\d\d) s of the output/;

describe('the mix clip meter', () => {
  itWithFfmpeg(
    'two 0.8 tones overlapping from 1 s to 2 s: the WAV and the MP4 warn of +4.1 dBFS there',
    async () => {
      const dir = await tempDir();
      const s = soundSession();
      const comp = await soundComp(s, 10, 3);
      // 0.8 + 0.8 in phase (the same tone) peaks at 1.6: +4.08 dBFS, only where both play.
      const a = await tone(dir, { freq: 300, seconds: 2, amplitude: 0.8 });
      await addSound(s, comp, a);
      await addSound(s, comp, a, { startTime: 1, outPoint: 3 });
      for (const out of [join(dir, 'hot.wav'), join(dir, 'hot.mp4')]) {
        const r = await renderTo(s, comp, out);
        expect(r.items[0]!.status).toBe('done');
        const [warning] = r.items[0]!.warnings ?? [];
        const m = PEAK.exec(warning ?? '');
        expect(m, warning).not.toBeNull();
        expect(Number(m![1])).toBeCloseTo(4.1, 1);
        expect(Number(m![2])).toBeGreaterThanOrEqual(0.97);
        expect(Number(m![2])).toBeLessThanOrEqual(1.03);
        expect(Number(m![3])).toBeGreaterThanOrEqual(1.98);
        expect(Number(m![3])).toBeLessThanOrEqual(2.02);
        expect(warning).toContain('audio.level');
      }
      // The WAV's samples agree: at full scale between 1 and 2 s, below it elsewhere.
      const sound = await decodeSound(join(dir, 'hot.wav'));
      const peak = (from: number, to: number) =>
        sound.subarray(from * RATE, to * RATE).reduce((m, v) => Math.max(m, Math.abs(v)), 0);
      expect(peak(1.05, 1.95)).toBeGreaterThan(0.999);
      expect(peak(0, 0.95)).toBeLessThan(0.81);
      expect(peak(2.05, 3)).toBeLessThan(0.81);
    },
  );

  itWithFfmpeg('the span is placed to 20 ms: a clip from 1.00 s to 1.70 s is reported there', async () => {
    const dir = await tempDir();
    const s = soundSession();
    const comp = await soundComp(s, 10, 3);
    // The mix's own frames run to 4096 samples and the meter gave each frame's start: this span was reported
    // as ending at 1.66 s (the start of its last frame), and a lone click at 1.00 s as being at 0.93 s.
    const a = await tone(dir, { freq: 300, seconds: 3, amplitude: 0.8 });
    await addSound(s, comp, a);
    await addSound(s, comp, a, { startTime: 0, inPoint: 1, outPoint: 1.7 });
    const r = await renderTo(s, comp, join(dir, 'hot.wav'));
    const [warning] = r.items[0]!.warnings ?? [];
    const m = PEAK.exec(warning ?? '');
    expect(m, warning).not.toBeNull();
    expect(Number(m![2])).toBeCloseTo(1, 1);
    expect(Math.abs(Number(m![3]) - 1.7)).toBeLessThanOrEqual(0.02);
  });

  itWithFfmpeg('the same layers 6 dB down stay below full scale: no warning', async () => {
    const dir = await tempDir();
    const s = soundSession();
    const comp = await soundComp(s, 10, 3);
    const a = await tone(dir, { freq: 300, seconds: 2, amplitude: 0.8 });
    for (const timing of [{}, { startTime: 1, outPoint: 3 }]) {
      const layer = await addSound(s, comp, a, timing);
      await run(s, 'property.set', { comp, layer, property: 'audio.level', value: -6 });
    }
    const r = await renderTo(s, comp, join(dir, 'ok.mp4'));
    expect(r.items[0]!.status).toBe('done');
    expect(r.items[0]).not.toHaveProperty('warnings');
  });
});
