// The sound's codec and bitrate an item chooses (encoding.audioCodec, audioBitrate): AAC in a MOV beside
// ProRes instead of its default PCM, and a bitrate for every lossy codec, read back by ffprobe; the AAC MOV's
// click lands on the same sample as the PCM MOV's (the edit list hides the priming). Settings a format cannot
// take are refused with the remedy, and the queue is left as it was.
import { join } from 'node:path';
import { describe, expect } from 'vitest';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import {
  click,
  decodeSound,
  ffmpegBytes,
  firstLoud,
  streamsOf,
  tone,
  type StreamInfo,
} from '../../helpers/audio.js';
import { run } from '../../helpers/queue.js';
import { tempDir } from '../../helpers/tmp.js';
import { addSound, renderTo, soundComp, soundSession } from './sound-helpers.js';

type Stream = StreamInfo & { bit_rate?: string };

async function soundOf(path: string): Promise<Stream> {
  return (await streamsOf(path)).find((s) => s.codec_type === 'audio') as Stream;
}

describe('the sound codec and bitrate of an item', () => {
  itWithFfmpeg('MOV carries AAC when asked, in sync with its default PCM', async () => {
    const dir = await tempDir();
    const s = soundSession();
    const comp = await soundComp(s, 10, 2);
    await addSound(s, comp, await click(dir, 0.5, 2));
    const [pcm, aac] = [join(dir, 'pcm.mov'), join(dir, 'aac.mov')];
    expect((await renderTo(s, comp, pcm)).completed).toBe(1);
    expect((await renderTo(s, comp, aac, { encoding: { audioCodec: 'aac' } })).completed).toBe(1);
    expect((await soundOf(pcm)).codec_name).toBe('pcm_s24le');
    expect(await soundOf(aac)).toMatchObject({ codec_name: 'aac', sample_rate: '48000', channels: 2 });
    const at = firstLoud(await decodeSound(pcm));
    expect(at).toBeCloseTo(0.5 * 48_000, -2);
    expect(firstLoud(await decodeSound(aac))).toBe(at);
  });

  /** The rate of `out`'s sound in kb/s: ffprobe's, or for WebM (none given) its Opus packets' size over 2 s. */
  async function kbpsOf(out: string): Promise<number> {
    const sound = await soundOf(out);
    if (sound.bit_rate) return Number(sound.bit_rate) / 1000;
    const opus = await ffmpegBytes(['-i', out, '-map', '0:a', '-c', 'copy', '-f', 'ogg', '-']);
    return (opus.length * 8) / 1000 / 2;
  }

  // AAC and MP3 hold the rate asked within 20%; Opus is variable (a pure tone takes 30% more at 64 kb/s, noise
  // 20% less), so it is held within half, and its low and high rates apart by more than half their ratio.
  itWithFfmpeg.each([
    ['mov', 'aac', [96, 256], 0.2],
    ['mp4', undefined, [96, 256], 0.2],
    ['m4a', undefined, [64, 256], 0.2],
    ['mp3', undefined, [96, 256], 0.2],
    ['webm', undefined, [48, 192], 0.5],
  ] as const)('%s (%s) at the kb/s asked', async (ext, audioCodec, rates, tolerance) => {
    const dir = await tempDir();
    const s = soundSession();
    const comp = await soundComp(s, 10, 2);
    await addSound(s, comp, await tone(dir, { freq: 440, seconds: 2, amplitude: 0.8 }));
    const measured: number[] = [];
    for (const kbps of rates) {
      const out = join(dir, `out-${kbps}.${ext}`);
      const encoding = { ...(audioCodec && { audioCodec }), audioBitrate: kbps };
      expect((await renderTo(s, comp, out, { encoding })).completed).toBe(1);
      measured.push(await kbpsOf(out));
      expect(Math.abs(measured.at(-1)! - kbps)).toBeLessThan(kbps * tolerance);
    }
    expect(measured[1]! / measured[0]!).toBeGreaterThan(rates[1] / rates[0] / 2);
  });

  itWithFfmpeg(
    'PCM at the bit depth asked: WAV 24-bit, and 32-bit float keeping a mix above full scale',
    async () => {
      const dir = await tempDir();
      const s = soundSession();
      const comp = await soundComp(s, 10, 1);
      // A 0.8 sine raised 6 dB: peaks at 1.6, above full scale.
      const layer = await addSound(s, comp, await tone(dir, { freq: 440, seconds: 1, amplitude: 0.8 }));
      await run(s, 'property.set', { comp, layer, property: 'audio.level', value: 6 });
      const peak = (samples: Float32Array) => samples.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
      const out = (name: string) => join(dir, name);
      expect((await renderTo(s, comp, out('16.wav'))).completed).toBe(1);
      const r24 = await renderTo(s, comp, out('24.wav'), { encoding: { audioBitDepth: 24 } });
      const r32 = await renderTo(s, comp, out('32.wav'), { encoding: { audioBitDepth: 32 } });
      expect([r24.completed, r32.completed]).toEqual([1, 1]);
      // Both say the mix goes above full scale; only the integer file is said to clip it.
      expect(r24.items[0]!.warnings?.join(' ')).toMatch(/a WAV or MP3 clips it there/);
      expect(r32.items[0]!.warnings?.join(' ')).toMatch(/this 32-bit float file keeps it as it is/);
      expect((await renderTo(s, comp, out('16.mov'), { encoding: { audioBitDepth: 16 } })).completed).toBe(1);
      expect((await soundOf(out('16.wav'))).codec_name).toBe('pcm_s16le');
      expect((await soundOf(out('24.wav'))).codec_name).toBe('pcm_s24le');
      expect((await soundOf(out('32.wav'))).codec_name).toBe('pcm_f32le');
      expect((await soundOf(out('16.mov'))).codec_name).toBe('pcm_s16le');
      // Integers clip at full scale; float keeps the mix as it is (1.6 = 0.8 raised 6.02 dB, to a rounding).
      expect(peak(await decodeSound(out('24.wav')))).toBeLessThanOrEqual(1);
      expect(peak(await decodeSound(out('32.wav')))).toBeCloseTo(0.8 * 10 ** (6 / 20), 2);
    },
  );

  itWithFfmpeg.each([
    [{ audioBitrate: 128 }, 'wav', /does not apply to format "wav"/, /encoding\.audioBitrate/],
    [{ audioBitrate: 128 }, 'mov', /does not apply to PCM/, /encoding\.audioCodec"? aac/],
    [{ audioCodec: 'opus' }, 'mov', /"opus" is not carried by format "mov"/, /pcm or aac/],
    [{ audioCodec: 'aac' }, 'webm', /"aac" is not carried by format "webm"/, /opus/],
    [{ audioBitrate: 400 }, 'mp3', /outside mp3's range 32-320/, /from 32 to 320/],
    [{ audioBitDepth: 24 }, 'mp4', /does not apply to format "mp4"/, /wav/],
    [{ audioCodec: 'aac', audioBitDepth: 24 }, 'mov', /applies to PCM only/, /encoding\.audioCodec"? pcm/],
    [{ audioCodec: 'aac' }, 'png', /does not apply to format "png"/, /mp4/],
  ] as const)('refuses %j for %s, naming the remedy', async (encoding, ext, message, remedy) => {
    const s = soundSession();
    const comp = await soundComp(s, 10, 1);
    const before = s.engine.document.renderQueue;
    const output = ext === 'png' ? '/tmp/never/f_[##].png' : `/tmp/never/out.${ext}`;
    const r = await s.engine.execute('renderQueue.add', { comp, output, encoding });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('bad_argument');
    expect(r.error.message).toMatch(message);
    expect(r.error.remediation).toMatch(remedy);
    expect(s.engine.document.renderQueue).toBe(before);
  });
});
