/** What a render worker hands the job for each frame (kept apart from encode.ts, which loads sharp). */
import type { StillEncoding } from '../engine/index.js';

/**
 * How workers deliver a frame: encoded image bytes, straight-alpha RGBA for a streaming encoder, or I420
 * (planar YUV 4:2:0, limited range, the matrix video-colour.ts gives the frame's size) for one that encodes
 * YUV 4:2:0 itself, so that the conversion happens in the workers rather than in ffmpeg.
 */
export type FramePayload = StillEncoding | { kind: 'rgba' } | { kind: 'i420' };

/** Raw pixels (RGBA or I420) rather than an encoded image: large, fixed-size, streamed in order. */
export function isRawPayload(payload: FramePayload): payload is { kind: 'rgba' } | { kind: 'i420' } {
  return payload.kind === 'rgba' || payload.kind === 'i420';
}
