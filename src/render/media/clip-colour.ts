/**
 * Which matrix a clip's YUV samples are read with when its tags state none. swscale's answer is BT.601 at every
 * size; players (mpv, VLC, browsers) and editors read an untagged HD clip as BT.709, the matrix HD video is made
 * with. We read it as they do (sizeMatrix), so the clip looks in a render as it does where it came from, and the
 * same rule decides the matrix our own renders are encoded with.
 */
import type { FootageItem } from '../../engine/index.js';
import { sizeMatrix, type YuvMatrix } from '../yuv/i420.js';

/**
 * The matrix to read `item` with, when it is YUV video whose tags state none; null when its tags state one (or
 * it is not YUV, or was probed before tags were recorded: then ffmpeg reads what the file says).
 */
export function untaggedMatrix(item: FootageItem): YuvMatrix | null {
  const yuv = item.media?.kind === 'video' ? item.media.yuv : null;
  if (!yuv || yuv.matrix !== null || !yuv.pixelFormat.startsWith('yuv')) return null;
  return sizeMatrix(item.height);
}
