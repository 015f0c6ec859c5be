/**
 * ffmpeg audio arguments, typed over the format table: every format that muxes sound with its picture, and
 * every audio-only format, has an entry here or the build fails.
 */
import type { AudioOnlyFormat, MuxedAudioFormat } from '../../../engine/index.js';

/** The audio stream beside the picture. */
export const MUXED_AUDIO_ARGS: { [F in MuxedAudioFormat]: string[] } = {
  // AAC-LC: what every MP4 player plays. The muxer's edit list hides the encoder's priming samples, so the
  // first sample decoded is the first sample mixed (sync holds).
  mp4: ['-c:a', 'aac', '-b:a', '192k'],
  // WebM allows Vorbis or Opus; Opus is the better codec at any rate (its pre-skip is in the header).
  webm: ['-c:a', 'libopus', '-b:a', '160k'],
  // PCM beside ProRes: uncompressed, as ProRes masters carry it; 24-bit keeps the float mix's detail.
  mov: ['-c:a', 'pcm_s24le'],
};

/** An audio-only output. */
export const AUDIO_ONLY_ARGS: { [F in AudioOnlyFormat]: string[] } = {
  // RF64 only past 4 GiB (about 6 hours of 48 kHz 16-bit stereo); a plain RIFF WAV below.
  wav: ['-c:a', 'pcm_s16le', '-rf64', 'auto', '-f', 'wav'],
  mp3: ['-c:a', 'libmp3lame', '-b:a', '192k', '-f', 'mp3'],
  // AAC-LC in an MPEG-4 audio file (ffmpeg's ipod muxer writes .m4a), index first for players that stream it;
  // its edit list hides the encoder's priming samples, as in MP4.
  m4a: ['-c:a', 'aac', '-b:a', '192k', '-movflags', '+faststart', '-f', 'ipod'],
};

/**
 * The mix a distributed (segmented) video is muxed from: float, so no sum of layers clips before the final
 * encoder.
 */
export const MIX_INTERMEDIATE_ARGS = ['-c:a', 'pcm_f32le', '-rf64', 'auto', '-f', 'wav'];
