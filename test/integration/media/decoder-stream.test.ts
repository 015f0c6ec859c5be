// A decoder's frames, however they reach us: read straight into its frame buffers through the socket pair
// (frame-socket.ts), or copied from a stdout pipe where no pair can be made. Every frame of a 40-frame clip must
// equal, byte for byte, what the same ffmpeg command writes to a file, in RGBA and in I420; the pair must be the
// way taken where it can be made, and no socket directory may be left behind.
import { execFile } from 'node:child_process';
import { watch } from 'node:fs';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect } from 'vitest';
import { decoderArgs, VideoDecoder, type DecoderSpec } from '../../../src/render/media/decoder.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { tempDir } from '../../helpers/tmp.js';

const exec = promisify(execFile);
const W = 320;
const H = 240;
const FRAMES = 40;

const savedTmp = process.env.TMPDIR;
afterEach(() => {
  if (savedTmp === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = savedTmp;
});

async function clip(dir: string): Promise<string> {
  const out = join(dir, 'clip.mp4');
  await exec('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i'],
    `testsrc2=s=${W}x${H}:r=25:d=${FRAMES / 25}`,
    ...['-c:v', 'libx264', '-g', '12', '-pix_fmt', 'yuv420p', out],
  ]);
  return out;
}

/** A W x H H.264 decoder of `input` from its first frame. */
const h264Spec = (input: string): DecoderSpec => ({
  ffmpeg: 'ffmpeg',
  input,
  width: W,
  height: H,
  seek: 0,
  codec: 'h264',
  alpha: false,
});

/** What ffmpeg writes to a file with exactly the decoder's arguments. */
async function reference(spec: DecoderSpec, output: 'rgba' | 'i420', dir: string): Promise<Buffer> {
  const file = join(dir, `ref-${output}.raw`);
  const args = decoderArgs(spec, true, output).map((a) => (a === 'pipe:1' ? file : a));
  await exec('ffmpeg', [...args, '-y']);
  return readFile(file);
}

async function decodeAll(spec: DecoderSpec, output: 'rgba' | 'i420'): Promise<Buffer[]> {
  const decoder = await VideoDecoder.start(spec, true, output);
  const frames: Buffer[] = [];
  try {
    for (let f = await decoder.next(); f; f = await decoder.next()) {
      frames.push(Buffer.from(f));
      decoder.recycle(f);
    }
  } finally {
    decoder.close();
  }
  return frames;
}

describe('decoder streams', () => {
  for (const via of ['socket pair', 'stdout pipe'] as const)
    for (const output of ['rgba', 'i420'] as const)
      itWithFfmpeg(`every ${output} frame through the ${via} equals ffmpeg's own`, async () => {
        const dir = await tempDir();
        const input = await clip(dir);
        const spec: DecoderSpec = {
          ...h264Spec(input),
          ...(output === 'i420' ? { planar: 'yuv420p' as const } : {}),
        };
        const ref = await reference(spec, output, dir);
        const tmp = await tempDir();
        // No temporary directory: the pair cannot be made, and the decoder reads its stdout pipe instead.
        process.env.TMPDIR = via === 'socket pair' ? tmp : join(tmp, 'missing');
        // The pair is made in a directory of its own there, removed once connected: a watcher sees it come.
        const seen: string[] = [];
        const watcher = watch(tmp, (_, name) => name && seen.push(name));
        const frames = await decodeAll(spec, output);
        await new Promise((r) => setTimeout(r, 50));
        watcher.close();
        expect(seen.some((n) => n.startsWith('ec-dec-'))).toBe(via === 'socket pair');
        const bytes = W * H * (output === 'i420' ? 1.5 : 4);
        expect(frames.length).toBe(FRAMES);
        expect(ref.byteLength).toBe(FRAMES * bytes);
        frames.forEach((frame, i) => {
          expect(frame.equals(ref.subarray(i * bytes, (i + 1) * bytes)), `frame ${i}`).toBe(true);
        });
        expect(await readdir(tmp)).toEqual([]);
      });

  itWithFfmpeg(
    'a file ffmpeg cannot decode is named as the user knows it, not by the path ffmpeg was given',
    async () => {
      const dir = await tempDir();
      // The renderers hand ffmpeg a descriptor's /proc path; here a plain one stands for it.
      const input = join(dir, 'opened-as-fd-23');
      await writeFile(input, 'not a video at all\n'.repeat(100));
      const decoder = await VideoDecoder.start(h264Spec(input), true, 'rgba');
      try {
        expect(await decoder.next()).toBeNull();
        const error = decoder.failure('/media/interview.mp4');
        expect(error.code).toBe('unsupported_format');
        expect(error.message).toMatch(/^ffmpeg could not decode "\/media\/interview\.mp4": \S/);
        expect(error.message).not.toContain(input);
      } finally {
        decoder.close();
      }
    },
  );

  itWithFfmpeg(
    'decodes no frame larger than moving footage may be (a file bigger than its project says)',
    async () => {
      const dir = await tempDir();
      // 8200x8200 is a few kB as grey PNG in MOV, and 67 Mpx: over 8192 x 8192.
      const input = join(dir, 'big.mov');
      await exec('ffmpeg', [
        ...['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', 'color=gray:s=8200x8200:r=1:d=1'],
        ...['-pix_fmt', 'gray', '-c:v', 'png', input],
      ]);
      // The project said 64x48: without the bound the decoder read a whole 8200x8200 picture.
      const decoder = await VideoDecoder.start(
        { ...h264Spec(input), width: 64, height: 48, codec: 'png' },
        true,
        'rgba',
      );
      try {
        expect(await decoder.next()).toBeNull();
        expect(decoder.failure('/media/big.mov').message).toMatch(
          /exceeds specified max pixel count|could not decode/,
        );
      } finally {
        decoder.close();
      }
    },
  );

  itWithFfmpeg(
    'decodes no frame of a playlist that names another file (the check before may be skipped)',
    async () => {
      const dir = await tempDir();
      // An MPEG-TS segment, as HLS plays them.
      const other = join(dir, 'segment.ts');
      await exec('ffmpeg', ['-loglevel', 'error', '-y', '-i', await clip(dir), '-c', 'copy', other]);
      const input = join(dir, 'looks-like.mp4');
      await writeFile(input, `#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:1.6,\n${other}\n#EXT-X-ENDLIST\n`);
      const decoder = await VideoDecoder.start(h264Spec(input), true, 'rgba');
      try {
        expect(await decoder.next()).toBeNull();
        expect(decoder.failure('/media/looks-like.mp4').code).toBe('unsupported_format');
      } finally {
        decoder.close();
      }
    },
  );
});
