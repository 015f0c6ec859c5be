/**
 * An untagged YUV clip is read with the matrix its size implies (BT.709 from 720 lines up, BT.601 below), as
 * players read it; a tagged clip, a non-YUV one and one probed before tags were recorded are left to ffmpeg.
 */
import { describe, expect, it } from 'vitest';
import type { FootageItem } from '../../../../src/engine/index.js';
import { untaggedMatrix } from '../../../../src/render/media/clip-colour.js';
import { decoderArgs } from '../../../../src/render/media/decoder.js';
import { mediaFromProbe } from '../../../../src/render/media/probe.js';

function clip(height: number, stream: Record<string, unknown> = {}): FootageItem {
  const probed = mediaFromProbe(
    {
      streams: [
        {
          codec_type: 'video',
          codec_name: 'h264',
          width: Math.round((height * 16) / 9 / 2) * 2,
          height,
          pix_fmt: 'yuv420p',
          r_frame_rate: '30/1',
          avg_frame_rate: '30/1',
          nb_frames: '30',
          duration: '1',
          ...stream,
        },
      ],
      format: { format_name: 'mov,mp4,m4a,3gp,3g2,mj2', duration: '1' },
    },
    'clip.mp4',
  );
  return { type: 'footage', id: 'f', name: 'clip', path: '/clip.mp4', ...probed } as FootageItem;
}

describe('untaggedMatrix', () => {
  it('reads untagged HD as BT.709 and untagged SD as BT.601', () => {
    expect(untaggedMatrix(clip(1080))).toBe('bt709');
    expect(untaggedMatrix(clip(720))).toBe('bt709');
    expect(untaggedMatrix(clip(576))).toBe('smpte170m');
    expect(untaggedMatrix(clip(360, { color_space: 'unknown' }))).toBe('smpte170m');
  });

  it('leaves a clip that states its matrix, a non-YUV clip and an old probe to the file', () => {
    expect(untaggedMatrix(clip(1080, { color_space: 'smpte170m' }))).toBeNull();
    expect(untaggedMatrix(clip(360, { color_space: 'bt709' }))).toBeNull();
    expect(untaggedMatrix(clip(1080, { pix_fmt: 'rgb24' }))).toBeNull();
    const old = clip(1080);
    delete old.media!.yuv;
    expect(untaggedMatrix(old)).toBeNull();
  });
});

describe('decoderArgs', () => {
  const spec = {
    ffmpeg: 'ffmpeg',
    input: 'in.mp4',
    width: 1920,
    height: 1080,
    seek: 0,
    codec: 'h264',
    alpha: false,
  };
  const vf = (args: string[]) => args[args.indexOf('-vf') + 1]!;

  it('names the untagged matrix in the scale to RGB and to the scrub JPEGs', () => {
    for (const output of ['rgba', 'mjpeg'] as const) {
      expect(vf(decoderArgs({ ...spec, untaggedMatrix: 'bt709' }, true, output))).toContain(
        'in_color_matrix=bt709',
      );
      expect(vf(decoderArgs(spec, true, output))).not.toContain('in_color_matrix');
    }
  });
});
