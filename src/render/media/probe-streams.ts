/**
 * ffprobe's JSON, as the probe reads it: the zod schema of its streams and format (data from another process is
 * never cast unchecked), and what one stream's fields say (its start, its length, its rate). Shared by the probe
 * (probe.ts) and the closer looks it takes at streams whose headers cannot be trusted (closer-look.ts).
 */
import { z } from 'zod';
import { MAX_AUDIO_STREAM } from '../../engine/model.js';

const Ratio = z.string().optional();
const Stream = z.looseObject({
  index: z.number().optional(),
  codec_type: z.string().optional(),
  codec_name: z.string().optional(),
  width: z.number().optional(),
  height: z.number().optional(),
  pix_fmt: z.string().optional(),
  color_space: z.string().optional(),
  color_range: z.string().optional(),
  r_frame_rate: Ratio,
  avg_frame_rate: Ratio,
  sample_aspect_ratio: Ratio,
  field_order: z.string().optional(),
  nb_frames: z.string().optional(),
  nb_read_packets: z.string().optional(),
  duration: z.string().optional(),
  start_time: z.string().optional(),
  sample_rate: z.string().optional(),
  channels: z.number().optional(),
  tags: z.record(z.string(), z.string()).optional(),
  side_data_list: z.array(z.looseObject({ rotation: z.number().optional() })).optional(),
  disposition: z.looseObject({ attached_pic: z.number().optional() }).optional(),
});
export type Stream = z.infer<typeof Stream>;
const Format = z.looseObject({
  format_name: z.string().optional(),
  duration: z.string().optional(),
  start_time: z.string().optional(),
});
export type Format = z.infer<typeof Format>;
export const ProbeOutput = z.looseObject({
  streams: z.array(Stream).default([]),
  format: Format.optional(),
});

/** `num/den` (ffprobe's rational form) as a number, or null when it is absent, zero or malformed. */
export function rational(text: string | undefined): number | null {
  if (!text) return null;
  const [n, d] = text.split(/[/:]/).map(Number);
  if (n === undefined || !Number.isFinite(n) || n <= 0) return null;
  if (d === undefined) return n;
  return Number.isFinite(d) && d > 0 ? n / d : null;
}

export const positive = (text: string | undefined): number | null => {
  const n = Number(text);
  return text !== undefined && Number.isFinite(n) && n > 0 ? n : null;
};

/** A stream's start in seconds (ffprobe's start_time), 0 when it does not say. */
export function startOf(s: Stream): number {
  const n = Number(s.start_time);
  return s.start_time !== undefined && Number.isFinite(n) ? n : 0;
}

/** Matroska's per-stream DURATION tag (`00:00:02.042000000`) in seconds: WebM and MKV give no stream duration. */
function durationTag(s: Stream): number | null {
  const m = /^(\d+):(\d{2}):(\d{2}(?:\.\d+)?)$/.exec(s.tags?.DURATION ?? '');
  return m ? positive(String(Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]))) : null;
}

export const isMatroska = (format: Format | undefined) =>
  format?.format_name?.split(',').includes('matroska') ?? false;

/**
 * How long a stream that starts at `start` lasts, as its file states it; null when it states nothing. Matroska
 * (WebM, MKV) gives no stream duration, and both its DURATION tag and its segment duration are where the stream
 * ENDS on the file's timeline: a WebM re-muxed to start at 2 s stated 5 s for 3 s of pictures (the layer ran
 * 2 s long on a frozen last frame), and ffmpeg's own WebM, whose picture starts at 7 ms, stated 3.007 s.
 */
export function statedLength(s: Stream, start: number, format: Format | undefined): number | null {
  const own = positive(s.duration);
  if (own !== null) return own;
  const stated = durationTag(s) ?? positive(format?.duration);
  if (stated === null || !isMatroska(format)) return stated;
  return positive(String(stated - start));
}

/** The picture footage shows: the first video stream that is not cover art. */
export const pictureOf = (streams: readonly Stream[]) =>
  streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);

/** The audio streams recorded (at most MAX_AUDIO_STREAM + 1). */
export const soundsOf = (streams: readonly Stream[]) =>
  streams.filter((s) => s.codec_type === 'audio').slice(0, MAX_AUDIO_STREAM + 1);

/**
 * What a closer look at some streams found (closer-look.ts), where their headers could not be trusted; keyed
 * by ffprobe's stream index.
 */
export interface Findings {
  /** The time of the first sample a stream's decoder gives (Opus: after its pre-skip). */
  soundStarts?: ReadonlyMap<number, number>;
  /** Where a stream's packets end (the last one's time plus its duration). */
  streamEnds?: ReadonlyMap<number, number>;
  /** The video's frames that are shown, where an edit list discards some of the packets it stores. */
  shownFrames?: number;
  /** The video's frames are unevenly spaced, by their packets' own times (Matroska: its headers cannot tell). */
  unevenFrames?: boolean;
  /**
   * The video's frames, counted, where some of its packets carry no time (MPEG-PS of small pictures): its stated
   * duration ends at the last time found, and its frames are as far apart as its frame rate says.
   */
  untimedFrames?: number;
}
