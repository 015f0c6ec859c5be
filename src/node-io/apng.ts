/**
 * Animated PNG (APNG): a PNG whose `acTL` chunk, before its first `IDAT`, says how many frames it has. sharp
 * (libvips) reads only its default image and reports one page, so an APNG imported as the still it looks like
 * showed its first frame for ever; the frame count lets the import play it as video (ffmpeg reads APNG).
 */

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** The frame count an APNG's `acTL` chunk states, or null for a still PNG (or bytes that are not a PNG). */
export function apngFrames(data: Buffer): number | null {
  if (data.length < SIGNATURE.length || !data.subarray(0, SIGNATURE.length).equals(SIGNATURE)) return null;
  // Chunks: length (4 bytes, big-endian), type (4), data, CRC (4). acTL must come before the image data.
  for (let at = SIGNATURE.length; at + 8 <= data.length;) {
    const length = data.readUInt32BE(at);
    const type = data.toString('latin1', at + 4, at + 8);
    if (type === 'IDAT' || type === 'IEND') return null;
    if (type === 'acTL') return length >= 8 && at + 12 <= data.length ? data.readUInt32BE(at + 8) : null;
    at += 12 + length;
  }
  return null;
}
