/** ffprobe's JSON to media facts: rates (constant, NTSC, variable), rotation, pixel aspect, alpha, audio, non-media. */
import { describe, expect, it } from 'vitest';
import { mediaFromProbe, rational } from '../../../../src/render/media/probe.js';
import { parsePacketTimes } from '../../../../src/render/media/timestamps.js';
import { nearestFrame } from '../../../../src/engine/time-map.js';

const video = (over: Record<string, unknown> = {}) => ({
  streams: [
    {
      codec_type: 'video',
      codec_name: 'h264',
      width: 1920,
      height: 1080,
      pix_fmt: 'yuv420p',
      r_frame_rate: '30000/1001',
      avg_frame_rate: '30000/1001',
      sample_aspect_ratio: '1:1',
      nb_frames: '300',
      duration: '10.010000',
      ...over,
    },
  ],
  format: { format_name: 'mov,mp4,m4a,3gp,3g2,mj2', duration: '10.010000' },
});

describe('mediaFromProbe', () => {
  it('reads a 29.97 fps clip as constant rate', () => {
    const r = mediaFromProbe(video(), 'a.mp4');
    expect(r).toMatchObject({ width: 1920, height: 1080, format: 'mp4' });
    expect(r.media).toMatchObject({
      kind: 'video',
      frameCount: 300,
      variableFrameRate: false,
      codec: 'h264',
    });
    expect(r.media.frameRate).toBeCloseTo(29.97, 2);
  });

  it("names the container by the file's extension within ffprobe's family, else the family's first", () => {
    expect(mediaFromProbe(video(), 'a.MOV').format).toBe('mov');
    expect(mediaFromProbe(video(), 'b.m4a').format).toBe('m4a');
    expect(mediaFromProbe(video(), 'c.webm').format).toBe('mov');
    expect(mediaFromProbe(video(), 'no-extension').format).toBe('mov');
  });

  it('marks variable frame rate when the average differs from the real base rate', () => {
    expect(
      mediaFromProbe(video({ r_frame_rate: '30/1', avg_frame_rate: '2400/97' }), 'v.mp4').media
        .variableFrameRate,
    ).toBe(true);
  });

  it('marks variable frame rate in WebM/MKV (equal rates) when the frames do not fill the stream duration', () => {
    // As ffprobe reports Matroska: no stream duration, its DURATION tag, the two rates equal, packets counted.
    const matroska = (frames: string, tag: string) =>
      mediaFromProbe(
        {
          streams: [
            {
              ...video().streams[0],
              r_frame_rate: '24/1',
              avg_frame_rate: '24/1',
              duration: undefined,
              nb_frames: undefined,
              nb_read_packets: frames,
              tags: { DURATION: tag },
            },
          ],
          format: { format_name: 'matroska,webm', duration: '4.000000' },
        },
        'v.webm',
      ).media;
    // 30 frames at 24 fps would last 1.25 s; the stream lasts 2.042 s: frames are held somewhere.
    expect(matroska('30', '00:00:02.042000000')).toMatchObject({ variableFrameRate: true, duration: 2.042 });
    // 49 frames fill 2.042 s at 24 fps: constant, and the stream's duration, not the (longer) file's.
    expect(matroska('49', '00:00:02.042000000')).toMatchObject({ variableFrameRate: false, duration: 2.042 });
  });

  it('turns the size for a quarter rotation and widens anamorphic pixels', () => {
    const turned = mediaFromProbe(video({ side_data_list: [{ rotation: -90 }] }), 'p.mp4');
    expect(turned).toMatchObject({ width: 1080, height: 1920, media: { rotation: 90 } });
    const wide = mediaFromProbe(video({ width: 1440, sample_aspect_ratio: '4:3' }), 'hdv.mp4');
    expect(wide).toMatchObject({ width: 1920, media: { pixelAspect: 4 / 3 } });
  });

  it('records how the pictures are stored, with unstated tags as null', () => {
    expect(mediaFromProbe(video(), 'a.mp4').media.yuv).toEqual({
      pixelFormat: 'yuv420p',
      matrix: null,
      range: null,
    });
    const tagged = video({ pix_fmt: 'yuvj420p', color_space: 'bt709', color_range: 'pc' });
    expect(mediaFromProbe(tagged, 'a.mp4').media.yuv).toEqual({
      pixelFormat: 'yuvj420p',
      matrix: 'bt709',
      range: 'pc',
    });
    const unknown = video({ color_space: 'unknown', color_range: 'unknown' });
    expect(mediaFromProbe(unknown, 'a.mp4').media.yuv).toMatchObject({ matrix: null, range: null });
    expect(mediaFromProbe(video({ pix_fmt: undefined }), 'a.mp4').media.yuv).toBeNull();
  });

  it('sees alpha in the pixel format or the VP9 alpha tag, and the first audio stream', () => {
    expect(mediaFromProbe(video({ pix_fmt: 'yuva444p10le' }), 'a.mov').media.alpha).toBe(true);
    expect(
      mediaFromProbe(video({ codec_name: 'vp9', tags: { alpha_mode: '1' } }), 'a.webm').media.alpha,
    ).toBe(true);
    const withSound = video();
    withSound.streams.push({
      codec_type: 'audio',
      codec_name: 'aac',
      sample_rate: '48000',
      channels: 2,
      duration: '9.5',
    } as never);
    expect(mediaFromProbe(withSound, 'a.mp4').media.audio).toEqual({
      codec: 'aac',
      sampleRate: 48000,
      channels: 2,
      duration: 9.5,
    });
  });

  it('records every audio stream of a file with several, with language and title, each at its own offset', () => {
    const two = video({ start_time: '0.000000' });
    two.streams.push(
      {
        codec_type: 'audio',
        codec_name: 'aac',
        sample_rate: '48000',
        channels: 2,
        duration: '10',
        start_time: '0.000000',
        tags: { language: 'und', handler_name: 'SoundHandler' },
      } as never,
      {
        codec_type: 'audio',
        codec_name: 'ac3',
        sample_rate: '44100',
        channels: 6,
        duration: '9',
        start_time: '0.500000',
        tags: { language: 'fra', title: '  Commentary\u0007 ' },
      } as never,
    );
    const { media } = mediaFromProbe(two, 'two.mkv');
    // The first is the layer's default, as before; the list holds them all, in the file's order.
    expect(media.audio).toEqual({ codec: 'aac', sampleRate: 48000, channels: 2, duration: 10 });
    expect(media.audioStreams).toEqual([
      { codec: 'aac', sampleRate: 48000, channels: 2, duration: 10 },
      {
        codec: 'ac3',
        sampleRate: 44100,
        channels: 6,
        duration: 9,
        offset: 0.5,
        language: 'fra',
        title: 'Commentary',
      },
    ]);
    // One stream: no list (the item stays as it always was).
    expect(mediaFromProbe(video(), 'one.mp4').media.audioStreams).toBeUndefined();
  });

  it('takes audio-only files as audio and refuses files with neither', () => {
    const audio = {
      streams: [
        { codec_type: 'audio', codec_name: 'pcm_s16le', sample_rate: '44100', channels: 1, duration: '2' },
      ],
      format: { format_name: 'wav' },
    };
    expect(mediaFromProbe(audio, 'a.wav').media).toMatchObject({
      kind: 'audio',
      audio: { sampleRate: 44100 },
    });
    expect(() => mediaFromProbe({ streams: [], format: { format_name: 'tty' } }, 'x.txt')).toThrow(
      expect.objectContaining({ code: 'unsupported_format' }),
    );
  });

  it('parses rationals and packet times', () => {
    expect(rational('30000/1001')).toBeCloseTo(29.97, 2);
    expect(rational('0/0')).toBeNull();
    expect([...parsePacketTimes('1.5\n1.0\n1.25\n\nN/A\n')]).toEqual([0, 0.25, 0.5]);
    // Integer pts in the stream's time base, exactly: a time midway between two frames is a true tie.
    const exact = parsePacketTimes('0\n17408\n18432\nN/A\n1/15360\n');
    expect([...exact]).toEqual([0, 17408 / 15360, 18432 / 15360]);
    expect(nearestFrame(exact, 35 / 30)).toBe(1);
  });
});
