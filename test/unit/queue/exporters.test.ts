// Every format of the output format table has a built-in exporter that writes what the table says: fails
// when a format is added to the table without its encoder settings or ffmpeg arguments, or the other way.
import { describe, expect, it } from 'vitest';
import {
  formatSpec,
  OUTPUT_FORMATS,
  type FfmpegFormat,
  type OutputFormatId,
  type RenderQueueItem,
} from '../../../src/engine/index.js';
import { builtinExporters } from '../../../src/render/queue/exporters/index.js';
import { AUDIO_ONLY_ARGS, MUXED_AUDIO_ARGS } from '../../../src/render/queue/exporters/audio-formats.js';
import {
  FFMPEG_FORMATS,
  ffmpegOutputArgs,
  pictureInput,
} from '../../../src/render/queue/exporters/ffmpeg-formats.js';
import type { ExporterContext } from '../../../src/render/queue/exporters/types.js';
import { FileTracker } from '../../../src/render/queue/tracker.js';

function context(format: OutputFormatId): ExporterContext {
  const item: RenderQueueItem = {
    id: 'rq_1',
    comp: 'comp_1',
    output: formatSpec(format).kind === 'sequence' ? '/out/f_[##].png' : '/out/clip.mp4',
    format,
    frameRange: null,
    scale: 1,
    skipExisting: false,
    overflow: [],
    alpha: false,
    audio: true,
  };
  // Constructing an exporter starts nothing: ffmpeg is only spawned by `begin` or the first frame.
  return {
    item,
    frames: [0, 1],
    frameRate: 10,
    frameSize: { width: 64, height: 36 },
    tracker: new FileTracker(),
    ffmpeg: '/usr/bin/ffmpeg',
    signal: new AbortController().signal,
    audio: null,
    progress: () => undefined,
  };
}

describe('built-in exporters', () => {
  it('cover exactly the table’s formats, delivering what each format’s encoder takes', () => {
    const registry = builtinExporters();
    expect([...registry.keys()]).toEqual(OUTPUT_FORMATS);
    for (const format of OUTPUT_FORMATS) {
      const exporter = registry.get(format)!(context(format));
      const encoder = formatSpec(format).encoder;
      // sharp formats get encoded frames from the workers; ffmpeg gets raw frames in frame order: I420 for
      // the opaque YUV 4:2:0 encodings (H.264, VP9), RGBA for the rest (an audio-only format gets no frames
      // at all: its plan renders no picture).
      const ffmpeg = typeof encoder === 'string';
      const raw = format === 'mp4' || format === 'webm' ? { kind: 'i420' } : { kind: 'rgba' };
      expect(exporter.payload, format).toEqual(ffmpeg ? raw : encoder);
      expect(exporter.ordered, format).toBe(ffmpeg);
    }
  });

  it('have audio arguments for every format with sound, and only for those', () => {
    const where = (sound: string) => OUTPUT_FORMATS.filter((f) => formatSpec(f).sound === sound).sort();
    expect(Object.keys(MUXED_AUDIO_ARGS).sort()).toEqual(where('muxed'));
    expect(Object.keys(AUDIO_ONLY_ARGS).sort()).toEqual(where('only'));
    for (const args of [...Object.values(MUXED_AUDIO_ARGS), ...Object.values(AUDIO_ONLY_ARGS)])
      expect(args).toContain('-c:a');
  });

  it('have ffmpeg arguments for every ffmpeg format, with alpha arguments exactly where the table has alpha', () => {
    const ffmpegFormats = OUTPUT_FORMATS.filter((f) => formatSpec(f).encoder === 'ffmpeg');
    expect(Object.keys(FFMPEG_FORMATS).sort()).toEqual([...ffmpegFormats].sort());
    const size = { width: 33, height: 19 };
    for (const f of ffmpegFormats as FfmpegFormat[]) {
      expect(FFMPEG_FORMATS[f].alpha !== null, f).toBe(formatSpec(f).alpha);
      const opaque = ffmpegOutputArgs(f, false, size, 10);
      const alpha = ffmpegOutputArgs(f, true, size, 10);
      // Every output names its muxer; RGB + Alpha gets its own arguments where the format carries alpha.
      expect(opaque, f).toContain('-f');
      if (formatSpec(f).alpha) expect(alpha, f).not.toEqual(opaque);
      else expect(alpha, f).toEqual(opaque);
      // I420 frames arrive converted and padded: no scale or pad filter, only the colour stamp.
      if (pictureInput(f, false) === 'i420') {
        const i420 = ffmpegOutputArgs(f, false, size, 10, {}, 'i420');
        expect(i420[i420.indexOf('-vf') + 1], f).toMatch(/^setparams=colorspace=smpte170m:/);
        expect(opaque[opaque.indexOf('-vf') + 1], f).toMatch(/^pad=.*scale=out_color_matrix=smpte170m/);
      } else expect(() => ffmpegOutputArgs(f, false, size, 10, {}, 'i420'), f).toThrow(RangeError);
    }
  });
});
