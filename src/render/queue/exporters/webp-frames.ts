/**
 * Animated WebP fix-up: ffmpeg's webp muxer marks every ANMF frame "alpha-blend over the previous frame".
 * With full key frames (libwebp, see video.ts) an opaque frame hides that, but a transparent pixel would show
 * the previous frames through it (a trail of every moving object). Setting each frame's blending bit to
 * "do not blend" makes every frame exactly what was rendered. The muxer also flags the file as having alpha
 * (VP8X) whatever its frames hold: an opaque render's flag is cleared, so readers do not take it as translucent.
 */
import { promises as fs } from 'node:fs';

// VP8X payload: the flags byte first (bit 4: the image has alpha).
const VP8X_ALPHA = 0x10;
// ANMF payload: X, Y, width-1, height-1, duration (3 bytes each), then the flags byte (bit 1: do not blend).
const FLAGS_OFFSET = 15;
const NO_BLEND = 0x02;

/**
 * Rewrites the flags of every ANMF chunk of the WebP file at `path` in place, and clears the file's alpha flag
 * unless `alpha` (the render kept its alpha); returns how many frames it set.
 */
export async function finishAnimatedWebp(path: string, alpha: boolean): Promise<number> {
  const file = await fs.open(path, 'r+');
  try {
    const { size } = await file.stat();
    const header = Buffer.alloc(12);
    await file.read(header, 0, 12, 0);
    if (header.toString('latin1', 0, 4) !== 'RIFF' || header.toString('latin1', 8, 12) !== 'WEBP') return 0;
    let frames = 0;
    const chunk = Buffer.alloc(8);
    for (let pos = 12; pos + 8 <= size;) {
      await file.read(chunk, 0, 8, pos);
      const length = chunk.readUInt32LE(4);
      if (chunk.toString('latin1', 0, 4) === 'VP8X' && length >= 1 && !alpha) {
        const flags = Buffer.alloc(1);
        await file.read(flags, 0, 1, pos + 8);
        flags[0] = flags[0]! & ~VP8X_ALPHA;
        await file.write(flags, 0, 1, pos + 8);
      }
      if (chunk.toString('latin1', 0, 4) === 'ANMF' && length > FLAGS_OFFSET) {
        const flag = Buffer.alloc(1);
        await file.read(flag, 0, 1, pos + 8 + FLAGS_OFFSET);
        flag[0] = (flag[0]! & ~0x03) | NO_BLEND;
        await file.write(flag, 0, 1, pos + 8 + FLAGS_OFFSET);
        frames++;
      }
      // Chunks are padded to an even length.
      pos += 8 + length + (length & 1);
    }
    return frames;
  } finally {
    await file.close();
  }
}
