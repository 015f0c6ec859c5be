/**
 * ffmpeg audio arguments, typed over the format table: every format that muxes sound with its picture, and
 * every audio-only format, has an entry here or the build fails. The codec, bitrate and bit depth are the item's
 * `encoding.audioCodec` / `audioBitrate` / `audioBitDepth` when set (checked against the format in engine/encoding.ts), else
 * the format's own.
 */
import type { AudioOnlyFormat, Encoding, MuxedAudioFormat, OutputFormatId } from '../../../engine/index.js';
import { formatSpec } from '../../../engine/output-formats.js';
import {
  AUDIO_BITRATES,
  audioCodecOf,
  DEFAULT_BIT_DEPTH,
  type AudioBitDepth,
  type AudioCodec,
} from '../../../engine/encoding.js';
import { MOVIE_TIMESCALE } from './movie-timescale.js';

type SoundFormat = MuxedAudioFormat | AudioOnlyFormat;

/**
 * PCM per container, at the item's bit depth, else the format's: 24-bit beside ProRes (uncompressed, as ProRes
 * masters carry it, keeping the float mix's detail); 16-bit in a WAV, what every tool reads; 32 is float, which
 * keeps a mix above full scale as it is (the other depths clip it). (The other formats carry no PCM: encoding.ts.)
 */
const PCM_ENCODERS: Record<AudioBitDepth, string> = { 16: 'pcm_s16le', 24: 'pcm_s24le', 32: 'pcm_f32le' };
const pcmOf = (format: SoundFormat, encoding: Encoding | undefined) =>
  PCM_ENCODERS[encoding?.audioBitDepth ?? DEFAULT_BIT_DEPTH[format] ?? 16];

const ENCODERS: Record<Exclude<AudioCodec, 'pcm'>, string> = {
  // AAC-LC: what every MP4 player plays. The muxer's edit list hides the encoder's priming samples, so the
  // first sample decoded is the first sample mixed (sync holds).
  aac: 'aac',
  // WebM allows Vorbis or Opus; Opus is the better codec at any rate (its pre-skip is in the header).
  opus: 'libopus',
  mp3: 'libmp3lame',
};

/** Whether an item's sound is written as float (32-bit PCM), which keeps a mix above full scale. */
export const keepsFloat = (encoding: Encoding | undefined) => encoding?.audioBitDepth === 32;

/** The codec arguments of `format`'s sound with `encoding`'s choices. */
function codecArgs(format: SoundFormat, encoding: Encoding | undefined): string[] {
  const codec = audioCodecOf(format, encoding) ?? 'pcm';
  if (codec === 'pcm') return ['-c:a', pcmOf(format, encoding)];
  const kbps = encoding?.audioBitrate ?? AUDIO_BITRATES[codec].default;
  return ['-c:a', ENCODERS[codec], '-b:a', `${kbps}k`];
}

/** What each audio-only file is, after its codec. */
const AUDIO_ONLY_CONTAINERS: { [F in AudioOnlyFormat]: string[] } = {
  // RF64 only past 4 GiB (about 6 hours of 48 kHz 16-bit stereo); a plain RIFF WAV below.
  wav: ['-rf64', 'auto', '-f', 'wav'],
  mp3: ['-f', 'mp3'],
  // An MPEG-4 audio file (ffmpeg's ipod muxer writes .m4a), index first for players that stream it; its edit
  // list hides the encoder's priming samples, as in MP4.
  m4a: [...MOVIE_TIMESCALE, '-movflags', '+faststart', '-f', 'ipod'],
};

/** Whether `format` carries sound beside its picture. */
export function isMuxedAudio(format: OutputFormatId): format is MuxedAudioFormat {
  return formatSpec(format).sound === 'muxed';
}

/** The audio stream beside the picture. */
export function muxedAudioArgs(format: MuxedAudioFormat, encoding?: Encoding): string[] {
  return codecArgs(format, encoding);
}

/** An audio-only output. */
export function audioOnlyArgs(format: AudioOnlyFormat, encoding?: Encoding): string[] {
  return [...codecArgs(format, encoding), ...AUDIO_ONLY_CONTAINERS[format]];
}

/** Every format's default sound arguments (for baselines and for checking the table is complete). */
export const MUXED_AUDIO_ARGS: { [F in MuxedAudioFormat]: string[] } = {
  mp4: muxedAudioArgs('mp4'),
  webm: muxedAudioArgs('webm'),
  mov: muxedAudioArgs('mov'),
};
export const AUDIO_ONLY_ARGS: { [F in AudioOnlyFormat]: string[] } = {
  wav: audioOnlyArgs('wav'),
  mp3: audioOnlyArgs('mp3'),
  m4a: audioOnlyArgs('m4a'),
};

/**
 * The mix a distributed (segmented) video is muxed from: float, so no sum of layers clips before the final
 * encoder.
 */
export const MIX_INTERMEDIATE_ARGS = ['-c:a', 'pcm_f32le', '-rf64', 'auto', '-f', 'wav'];
