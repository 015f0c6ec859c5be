/**
 * The largest side of moving footage (video, animated GIF, image sequence). Each of its frames is decoded whole
 * to RGBA, whatever size it is drawn at, once per worker and in every cache: a 16000x16000 frame is 1 GB, and a
 * file of under 1 MB that declares it took a 64-pixel preview to 4.4 GB. 8192 holds 8K (8192x4320) and DCI 4K.
 * Refused at import, and again before a file is decoded (a project file may declare anything).
 */
export const MAX_MOVING_SIDE = 8192;
