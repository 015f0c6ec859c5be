// The colour rule of video files (BT.709 matrix from 720 lines, BT.601 below; BT.709 primaries and transfer;
// limited range), and that every YUV video format both converts with it and states it.
import { describe, expect, it } from 'vitest';
import { ffmpegOutputArgs } from '../../../src/render/queue/exporters/ffmpeg-formats.js';
import { videoColour } from '../../../src/render/queue/exporters/video-colour.js';

const YUV_VIDEO = [
  ['mp4', false],
  ['webm', false],
  ['webm', true],
  ['mov', false],
  ['mov', true],
] as const;

describe('video colour', () => {
  it('uses the BT.709 matrix from 720 lines up and BT.601 below, BT.709 primaries and transfer, limited range', () => {
    expect(videoColour({ width: 1280, height: 720 }).matrix).toBe('bt709');
    expect(videoColour({ width: 3840, height: 2160 }).matrix).toBe('bt709');
    expect(videoColour({ width: 1280, height: 719 }).matrix).toBe('smpte170m');
    for (const height of [360, 1080])
      expect(videoColour({ width: 640, height })).toMatchObject({
        primaries: 'bt709',
        transfer: 'bt709',
        range: 'tv',
      });
  });

  it('has every YUV video format convert with the matrix it tags', () => {
    for (const [size, matrix] of [
      [{ width: 1920, height: 1080 }, 'bt709'],
      [{ width: 640, height: 480 }, 'smpte170m'],
    ] as const) {
      for (const [format, alpha] of YUV_VIDEO) {
        const args = ffmpegOutputArgs(format, alpha, size, 10);
        const at = (flag: string) => args[args.indexOf(flag) + 1];
        expect(at('-colorspace'), format).toBe(matrix);
        expect(at('-color_primaries'), format).toBe('bt709');
        expect(at('-color_trc'), format).toBe('bt709');
        expect(at('-color_range'), format).toBe('tv');
        expect(at('-vf'), format).toContain(`scale=out_color_matrix=${matrix}:out_range=tv`);
      }
    }
  });
});
