// Footage decoding honours a clip's colour tags: the same colour, encoded once with the BT.709 matrix and
// once with BT.601 (each tagged so), must decode to that colour within 2 levels, whatever the codec (8-bit
// 4:2:0 itself rounds by up to 2). Decoded with the wrong matrix, #e94560 is 13 to 20 levels off.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect } from 'vitest';
import { VideoDecoder } from '../../../src/render/media/decoder.js';
import { itWithFfmpeg } from '../../helpers/ffmpeg.js';
import { tempDir } from '../../helpers/tmp.js';

const exec = promisify(execFile);
const W = 64;
const H = 48;
const COLOUR = [0xe9, 0x45, 0x60] as const;

const MATRICES = { bt709: 'bt709', bt601: 'smpte170m' } as const;
const CODECS = {
  h264: { ext: 'mp4', pix: 'yuv420p', args: ['-c:v', 'libx264', '-qp', '0'] },
  prores: { ext: 'mov', pix: 'yuv422p10le', args: ['-c:v', 'prores_ks', '-profile:v', '3'] },
} as const;

/** A flat #e94560 clip converted with `matrix` (limited range) and tagged with it. */
async function taggedClip(dir: string, matrix: keyof typeof MATRICES, codec: keyof typeof CODECS) {
  const m = MATRICES[matrix];
  const { ext, pix, args } = CODECS[codec];
  const out = join(dir, `${matrix}.${ext}`);
  const hex = COLOUR.map((v) => v.toString(16).padStart(2, '0')).join('');
  await exec('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi', '-i'],
    `color=c=0x${hex}:s=${W}x${H}:r=10:d=0.3,format=rgb24`,
    // On the output side, where the pixel format is chosen: scale itself converts to YUV with the matrix.
    ...[
      '-vf',
      `scale=out_color_matrix=${m}:out_range=tv,setparams=colorspace=${m}:color_primaries=${m}:color_trc=${m}:range=tv`,
    ],
    ...['-pix_fmt', pix],
    ...args,
    // Fully tagged, as cameras and editors write them (ProRes keeps no matrix tag without the other two).
    ...['-colorspace', m, '-color_primaries', m, '-color_trc', m, '-color_range', 'tv'],
    out,
  ]);
  return out;
}

async function firstFrame(input: string): Promise<Buffer> {
  const decoder = await VideoDecoder.start(
    { ffmpeg: 'ffmpeg', input, width: W, height: H, seek: 0, codec: null, alpha: false },
    true,
  );
  try {
    const frame = await decoder.next();
    if (!frame) throw decoder.failure(input);
    return frame;
  } finally {
    decoder.close();
  }
}

describe('footage decoding colour', () => {
  for (const codec of Object.keys(CODECS) as (keyof typeof CODECS)[]) {
    for (const matrix of Object.keys(MATRICES) as (keyof typeof MATRICES)[]) {
      itWithFfmpeg(`a ${matrix}-tagged ${codec} clip decodes to its colour within 2 levels`, async () => {
        const dir = await tempDir();
        const frame = await firstFrame(await taggedClip(dir, matrix, codec));
        const at = ((H / 2) * W + W / 2) * 4;
        const got = [frame[at]!, frame[at + 1]!, frame[at + 2]!];
        const worst = Math.max(...COLOUR.map((v, c) => Math.abs(v - got[c]!)));
        expect(worst, `decoded as ${got.join(',')}`).toBeLessThanOrEqual(2);
      });
    }
  }
});
