/**
 * A render queue item's encoder settings (`encoding`): codec, CRF, ProRes profile, JPEG/WebP quality, GIF
 * palette and dither, x264/x265 preset, and the sound's codec, bitrate and (PCM) bit depth. Every field is optional: absent, the format's own default applies
 * (src/render/queue/exporters/ffmpeg-formats.ts and the format table). Which format takes which field is
 * decided here, once, so renderQueue.add, renderQueue.update, project files and the CLI refuse the same things.
 * The schema is in model.ts; this module stays free of zod so the CLI's flag definitions can load it cheaply.
 */
import type { Remedy } from './surface-words.js';
import type { Encoding } from './model.js';
import { listWords, type OutputFormatId } from './output-formats.js';

export const CODECS = ['h264', 'h265', 'prores', 'vp9'] as const;
export type Codec = (typeof CODECS)[number];
export const PRORES_PROFILES = ['proxy', 'lt', 'standard', 'hq', '4444'] as const;
export const GIF_PALETTES = ['global', 'per-frame'] as const;
/** ffmpeg paletteuse's dither names (Debian 12's ffmpeg 5.1 has these; `none` turns dithering off). */
export const GIF_DITHERS = ['none', 'bayer', 'heckbert', 'floyd_steinberg', 'sierra2', 'sierra2_4a'] as const;
export const X264_PRESETS = [
  'ultrafast',
  'superfast',
  'veryfast',
  'faster',
  'fast',
  'medium',
  'slow',
  'slower',
  'veryslow',
] as const;

/** Sound codecs, as `encoding.audioCodec` names them. */
export const AUDIO_CODECS = ['aac', 'opus', 'mp3', 'pcm'] as const;
export type AudioCodec = (typeof AUDIO_CODECS)[number];

/** Bits per sample of PCM sound (`encoding.audioBitDepth`): 16- and 24-bit integer, 32-bit float. */
export const AUDIO_BIT_DEPTHS = [16, 24, 32] as const;
export type AudioBitDepth = (typeof AUDIO_BIT_DEPTHS)[number];
/** Each format's PCM depth when none is asked: 24-bit beside ProRes, as masters carry it; 16-bit in a WAV. */
export const DEFAULT_BIT_DEPTH: Partial<Record<OutputFormatId, AudioBitDepth>> = { mov: 24, wav: 16 };

export type EncodingField = keyof Encoding;

/** The codecs each container carries; the first is its default. */
export const FORMAT_CODECS: Partial<Record<OutputFormatId, readonly Codec[]>> = {
  mp4: ['h264', 'h265'],
  mov: ['prores'],
  webm: ['vp9'],
};

const CRF_MAX: Record<Codec, number | null> = { h264: 51, h265: 51, vp9: 63, prores: null };

/**
 * The sound codecs each format with sound carries; the first is its default. MOV masters carry PCM; AAC in MOV
 * is for a deliverable that has to stay small (or a player that expects it).
 */
export const FORMAT_AUDIO_CODECS: Partial<Record<OutputFormatId, readonly AudioCodec[]>> = {
  mp4: ['aac'],
  mov: ['pcm', 'aac'],
  webm: ['opus'],
  wav: ['pcm'],
  mp3: ['mp3'],
  m4a: ['aac'],
};

/** kb/s each lossy sound codec takes (encoder limits for 48 kHz stereo), and its default. */
export const AUDIO_BITRATES: Record<
  Exclude<AudioCodec, 'pcm'>,
  { min: number; max: number; default: number }
> = {
  aac: { min: 32, max: 512, default: 192 },
  opus: { min: 32, max: 512, default: 160 },
  mp3: { min: 32, max: 320, default: 192 },
};

/** The widest bitrate range any codec takes: what the schema and the CLI flag accept before checkEncoding. */
export const AUDIO_BITRATE_RANGE = {
  min: Math.min(...Object.values(AUDIO_BITRATES).map((r) => r.min)),
  max: Math.max(...Object.values(AUDIO_BITRATES).map((r) => r.max)),
};

/** The formats whose sound may be encoded with one of `codecs`. */
const carrying = (test: (codec: AudioCodec) => boolean): OutputFormatId[] =>
  (Object.entries(FORMAT_AUDIO_CODECS) as [OutputFormatId, readonly AudioCodec[]][])
    .filter(([, codecs]) => codecs.some(test))
    .map(([format]) => format);

/** The formats each field applies to (codec-dependent fields are narrowed further in checkEncoding). */
const FIELD_FORMATS: Record<EncodingField, readonly OutputFormatId[]> = {
  codec: ['mp4', 'mov', 'webm'],
  crf: ['mp4', 'webm'],
  proresProfile: ['mov'],
  quality: ['jpeg', 'webp', 'webp-anim'],
  gifPalette: ['gif'],
  gifDither: ['gif'],
  x264Preset: ['mp4'],
  audioCodec: carrying(() => true),
  // A bitrate needs a lossy codec: a WAV is PCM only.
  audioBitrate: carrying((codec) => codec !== 'pcm'),
  // A bit depth needs PCM: MOV (when its sound is PCM) and WAV.
  audioBitDepth: carrying((codec) => codec === 'pcm'),
};

/** Fields as messages name them on every surface (remedies name the param or the flag that sets it). */
const FIELD_NAMES: Record<EncodingField, string> = {
  codec: 'A codec choice',
  crf: 'A CRF',
  proresProfile: 'A ProRes profile',
  quality: 'A quality setting',
  gifPalette: 'A GIF palette mode',
  gifDither: 'A GIF dither',
  x264Preset: 'An encoder preset',
  audioCodec: 'A sound codec',
  audioBitrate: 'A sound bitrate',
  audioBitDepth: 'A sound bit depth',
};

/** The sound codec an item encodes with: its own, else the format's default (undefined: no sound). */
export function audioCodecOf(format: OutputFormatId, encoding: Encoding | undefined): AudioCodec | undefined {
  return encoding?.audioCodec ?? FORMAT_AUDIO_CODECS[format]?.[0];
}

/** The codec an item encodes with: its own, else the container's default (undefined: not a video format). */
export function codecOf(format: OutputFormatId, encoding: Encoding | undefined): Codec | undefined {
  return encoding?.codec ?? FORMAT_CODECS[format]?.[0];
}

export interface EncodingFailure {
  message: string;
  remediation: Remedy;
}

const fail = (message: string, remediation: Remedy): EncodingFailure => ({ message, remediation });

/** The first field of `encoding` that `format` (with or without alpha) cannot honour, or undefined. */
export function checkEncoding(
  encoding: Encoding | undefined,
  format: OutputFormatId,
  alpha: boolean,
): EncodingFailure | undefined {
  if (!encoding) return undefined;
  for (const field of Object.keys(encoding) as EncodingField[]) {
    if (encoding[field] === undefined || FIELD_FORMATS[field].includes(format)) continue;
    return fail(
      `${FIELD_NAMES[field]} does not apply to format "${format}".`,
      (w) =>
        `Leave out ${w.param(`encoding.${field}`)}, or render ${listWords([...FIELD_FORMATS[field]])} (it applies to those).`,
    );
  }
  const codec = codecOf(format, encoding);
  if (encoding.codec && !FORMAT_CODECS[format]?.includes(encoding.codec)) {
    const carriers = Object.entries(FORMAT_CODECS)
      .filter(([, codecs]) => codecs.includes(encoding.codec!))
      .map(([f]) => f);
    return fail(
      `Codec "${encoding.codec}" is not carried by format "${format}" (it carries ${listWords([...FORMAT_CODECS[format]!])}).`,
      (w) =>
        `Render ${encoding.codec} to ${listWords(carriers)} (end the output in ${listWords(carriers.map((f) => `.${f}`))}), or pick ${w.param('encoding.codec')} ${listWords([...FORMAT_CODECS[format]!])}.`,
    );
  }
  const crfMax = codec ? CRF_MAX[codec] : null;
  if (encoding.crf !== undefined && crfMax !== null && encoding.crf > crfMax)
    return fail(
      `CRF ${encoding.crf} is outside ${codec}'s range 0-${crfMax}.`,
      (w) => `Pick ${w.param('encoding.crf')} from 0 to ${crfMax} (lower: better and bigger).`,
    );
  if (encoding.x264Preset && codec !== 'h264' && codec !== 'h265')
    return fail(
      `A preset applies to h264 and h265 only; this item encodes ${codec}.`,
      (w) => `Leave out ${w.param('encoding.x264Preset')}.`,
    );
  const sound = checkSound(encoding, format);
  if (sound) return sound;
  if (alpha && encoding.proresProfile && encoding.proresProfile !== '4444')
    return fail(
      `ProRes "${encoding.proresProfile}" has no alpha channel; RGB + Alpha is ProRes 4444.`,
      (w) => `Use ${w.param('encoding.proresProfile')} 4444, or leave out alpha.`,
    );
  return undefined;
}

/**
 * The sound fields: a codec the format carries, a bit depth only for PCM, and a bitrate only for a lossy codec,
 * in its range.
 */
function checkSound(encoding: Encoding, format: OutputFormatId): EncodingFailure | undefined {
  const carried = FORMAT_AUDIO_CODECS[format] ?? [];
  const { audioCodec, audioBitrate, audioBitDepth } = encoding;
  if (audioCodec && !carried.includes(audioCodec))
    return fail(
      `Sound codec "${audioCodec}" is not carried by format "${format}" (it carries ${listWords([...carried])}).`,
      (w) =>
        `Pick ${w.param('encoding.audioCodec')} ${listWords([...carried])}, or leave it out (${carried[0]}).`,
    );
  const codec = audioCodecOf(format, encoding);
  if (audioBitDepth !== undefined && codec !== 'pcm')
    return fail(
      `A sound bit depth applies to PCM only; this item's sound is ${codec}${audioCodec ? ' as chosen' : ''}.`,
      (w) =>
        `Leave out ${w.param('encoding.audioBitDepth')}${format === 'mov' ? `, or pick ${w.param('encoding.audioCodec')} pcm` : ''}.`,
    );
  if (audioBitrate === undefined || !codec) return undefined;
  if (codec === 'pcm')
    return fail(
      `A sound bitrate does not apply to PCM, which "${format}" carries${audioCodec ? ' as chosen' : ' by default'}: it is uncompressed.`,
      (w) =>
        format === 'mov'
          ? `Leave out ${w.param('encoding.audioBitrate')}, or pick ${w.param('encoding.audioCodec')} aac.`
          : `Leave out ${w.param('encoding.audioBitrate')}.`,
    );
  const { min, max } = AUDIO_BITRATES[codec];
  if (audioBitrate < min || audioBitrate > max)
    return fail(
      `Sound bitrate ${audioBitrate} kb/s is outside ${codec}'s range ${min}-${max}.`,
      (w) => `Pick ${w.param('encoding.audioBitrate')} from ${min} to ${max} (kb/s).`,
    );
  return undefined;
}
