/** Encoder settings shared by the opaque and the alpha variants of a format. */

/** VP9 at constant quality (CRF 32), "good" speed 4 with row threading: ~real time at 1080p on 2 cores. */
export const VP9_QUALITY = [
  '-c:v',
  'libvpx-vp9',
  '-crf',
  '32',
  '-b:v',
  '0',
  '-deadline',
  'good',
  '-cpu-used',
  '4',
  '-row-mt',
  '1',
];
