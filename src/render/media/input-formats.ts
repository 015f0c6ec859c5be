/**
 * The containers ffmpeg and ffprobe may read footage as. Confinement checks the one file a footage item names
 * and hands its children that open descriptor (`/proc/<pid>/fd/N`); but ffmpeg picks a demuxer by the bytes it
 * finds, and some demuxers open other files named inside: an HLS playlist or a DASH manifest (any absolute path
 * or `file:` URL), an ffconcat list (relative names, resolved against `/proc/<pid>/fd/`: the server's own
 * stdin), IMF, SDP. A file of that kind inside a read root would read media from anywhere on the machine into a
 * preview or a render. So every child that reads footage is given this list (`-format_whitelist`): containers
 * whose pictures and sound are all inside the one file. ffmpeg refuses any other demuxer outright.
 */
import { EngineError, MAX_MOVING_SIDE } from '../../engine/core.js';

/**
 * ffmpeg's demuxer names (a demuxer matches when any of its names is here: "mov" is the one that reads MP4,
 * M4A, 3GP and MOV; "matroska" reads WebM). No playlist, manifest, list or script format.
 */
export const SELF_CONTAINED_FORMATS = [
  // Video containers
  ...['mov', 'matroska', 'avi', 'mpegts', 'mpeg', 'mxf', 'flv', 'asf', 'nut', 'dv', 'ivf', 'obu'],
  // Elementary video streams and animated pictures
  ...['h264', 'hevc', 'm4v', 'mpegvideo', 'mjpeg', 'gif', 'apng', 'yuv4mpegpipe'],
  // Single images ffmpeg reads (TIFF, BMP, DPX, EXR, PPM, JPEG 2000... imported as one-frame footage)
  ...['tiff_pipe', 'bmp_pipe', 'dpx_pipe', 'exr_pipe', 'ppm_pipe', 'pgm_pipe', 'pgmyuv_pipe', 'pbm_pipe'],
  ...['pam_pipe', 'pfm_pipe', 'j2k_pipe', 'psd_pipe', 'qoi_pipe', 'png_pipe', 'jpeg_pipe', 'jpegls_pipe'],
  ...['webp_pipe', 'gif_pipe', 'sgi_pipe', 'sunrast_pipe', 'pcx_pipe', 'xbm_pipe', 'xpm_pipe', 'hdr_pipe'],
  // Sound
  ...['wav', 'w64', 'mp3', 'aac', 'flac', 'ogg', 'aiff', 'caf', 'au', 'amr', 'ac3', 'eac3', 'dts'],
  ...['truehd', 'wv', 'ape', 'tta'],
] as const;

const WHITELIST = SELF_CONTAINED_FORMATS.join(',');

/** The options before a footage input (`-i`) of ffmpeg, or before ffprobe's input: the containers allowed. */
export const FOOTAGE_INPUT_OPTIONS: readonly string[] = ['-format_whitelist', WHITELIST];

/**
 * A decoder's bound on a picture's pixels: ffmpeg refuses a larger frame before allocating it. The import refuses
 * larger footage; a project file may still point at a file bigger than it says (a 64x48 item whose file is
 * 16000x16000 took a render to 3.6 GB before its check, which runs beside the first decoders, could refuse it).
 */
const PICTURE_LIMIT = ['-max_pixels', String(MAX_MOVING_SIDE * MAX_MOVING_SIDE)];

/** `-format_whitelist LIST -max_pixels N -i PATH`: a footage file as an ffmpeg input. */
export function footageInput(path: string): string[] {
  return [...FOOTAGE_INPUT_OPTIONS, ...PICTURE_LIMIT, '-i', path];
}

/**
 * ffmpeg's words for a refused container: "[hls @ 0x55...] Format not on whitelist '...'", with the level between
 * when it logs levels (the probe's `-v level+warning`: "[hls @ 0x55...] [error] Format not on whitelist").
 */
const REFUSED = /\[([\w-]+) @ [^\]]*\] (?:\[\w+\] )?Format not on whitelist/;

/** The demuxer ffmpeg refused in `stderr`, if that is why it failed. */
export function refusedFormat(stderr: string): string | null {
  return REFUSED.exec(stderr)?.[1] ?? null;
}

/** Formats that name other files, as people call them. */
const LISTS: Record<string, string> = {
  hls: 'an HLS playlist',
  dash: 'a DASH manifest',
  concat: 'an ffconcat list',
  sdp: 'an SDP session description',
  imf: 'an IMF composition playlist',
};

/**
 * The error for footage ffmpeg would read with a demuxer not on the list: one that names other files (an HLS
 * playlist, a DASH manifest, a concat list), or another format footage is not (subtitles, a script).
 */
export function notSelfContained(shownPath: string, format: string): EngineError {
  const list = LISTS[format];
  return new EngineError(
    'unsupported_format',
    list
      ? `"${shownPath}" is ${list}: it names other media files, which EffectCraft does not follow (they could be ` +
          'anywhere, outside the folders it may read). Footage is one self-contained media file.'
      : `"${shownPath}" is read by ffmpeg as "${format}", which is not a picture or sound format footage can be.`,
    list
      ? 'Import the media files themselves (MP4, MOV, WebM, MKV, GIF, WAV, MP3...), or join them into one first ' +
          '(ffmpeg -f concat ... -c copy joined.mp4, or ffmpeg -i playlist.m3u8 -c copy joined.mp4).'
      : 'Import a video (MP4, MOV, WebM, MKV...), a sound file (WAV, MP3, AAC, FLAC, Opus) or an image.',
  );
}
