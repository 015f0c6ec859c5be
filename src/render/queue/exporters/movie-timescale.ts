/**
 * MP4, MOV and M4A: the movie's time unit, in which each track's edit list says how long it plays. ffmpeg's
 * default, 1000, cut a 45-frame 29.97 fps item's sound to 72048 samples of its 72072 (1.501 s of 1.5015) and its
 * picture to 1.502 s. 240000 counts the usual frame rates exactly (24, 25, 30, 48, 50, 60, 120, 240 and the
 * 1000/1001 ones: 24000/1001, 30000/1001, 60000/1001) and 48 kHz samples.
 */
export const MOVIE_TIMESCALE = ['-movie_timescale', '240000'];
