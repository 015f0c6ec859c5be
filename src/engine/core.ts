/**
 * The engine's model and pure functions, without its command catalog: what the render workers load. The
 * catalog's schemas (and immer) took a worker ~25 ms to load before its first frame and are never used there.
 * engine/index.ts re-exports all of this.
 */
export * from './errors.js';
export * from './model.js';
export * from './output-formats.js';
export * from './encoding.js';
export * from './surface-words.js';
export { valueAt, cubicBezier } from './keyframes.js';
export * from './time-map.js';
export { isSequencePattern, sequenceFrame } from './image-sequence.js';
export { missingGlyphsMessage } from './missing-glyphs.js';
