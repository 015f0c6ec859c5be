import { EngineError } from './errors.js';

/**
 * The largest side of moving footage (video, animated GIF, image sequence). Each of its frames is decoded whole
 * to RGBA, whatever size it is drawn at, once per worker and in every cache: a 16000x16000 frame is 1 GB, and a
 * file of under 1 MB that declares it took a 64-pixel preview to 4.4 GB. 8192 holds 8K (8192x4320) and DCI 4K.
 * Refused at import, and again before a file is decoded (a project file may declare anything).
 */
export const MAX_MOVING_SIDE = 8192;

/** The highest frame rate of video footage (limits.ts: the schema of a project file holds it too). */
export { MAX_FOOTAGE_FRAME_RATE } from './limits.js';

/**
 * The lowest sample rate of footage sound. Every clip is resampled to the mix's 48 kHz, and ffmpeg's resampler
 * grows with the ratio: an 86 kB WAV declaring 1 Hz took one ffmpeg to 1 GB and a 3-second render to 3.9 GB
 * and 11.5 s (2 Hz: 530 MB; 1000 Hz and above: the usual 55 MB). No sound format in use goes below 8 kHz.
 * Refused at import.
 */
export const MIN_SAMPLE_RATE = 1000;

/**
 * The refusal of sound at `rate` Hz (under MIN_SAMPLE_RATE) in the file shown as `shown`, at import or before a
 * mix; `then`: what to do with the resampled file there.
 */
export function lowSampleRate(shown: string, rate: number, then: string): EngineError {
  return new EngineError(
    'unsupported_format',
    `"${shown}" has sound at ${rate} Hz; footage sound is at least ${MIN_SAMPLE_RATE} Hz (every clip is resampled to 48 kHz, which at so low a rate takes ffmpeg gigabytes).`,
    `Resample it first, e.g. ffmpeg -i "${shown}" -ar 48000 resampled.wav (a video: -c:v copy -ar 48000 resampled.mov), and ${then}.`,
  );
}
