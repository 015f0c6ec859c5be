/**
 * The largest side of moving footage (video, animated GIF, image sequence). Each of its frames is decoded whole
 * to RGBA, whatever size it is drawn at, once per worker and in every cache: a 16000x16000 frame is 1 GB, and a
 * file of under 1 MB that declares it took a 64-pixel preview to 4.4 GB. 8192 holds 8K (8192x4320) and DCI 4K.
 * Refused at import, and again before a file is decoded (a project file may declare anything).
 */
export const MAX_MOVING_SIDE = 8192;

/**
 * The lowest sample rate of footage sound. Every clip is resampled to the mix's 48 kHz, and ffmpeg's resampler
 * grows with the ratio: an 86 kB WAV declaring 1 Hz took one ffmpeg to 1 GB and a 3-second render to 3.9 GB
 * and 11.5 s (2 Hz: 530 MB; 1000 Hz and above: the usual 55 MB). No sound format in use goes below 8 kHz.
 * Refused at import.
 */
export const MIN_SAMPLE_RATE = 1000;
