/**
 * The engine's model types and pure functions, without its command catalog or any zod schema: what the render
 * workers load. The catalog's schemas (and immer) took a worker ~25 ms to load before its first frame, and zod
 * with the model's schemas ~60 ms more; a worker uses neither. engine/index.ts re-exports all of this and the
 * model's schemas.
 */
export * from './errors.js';
export type * from './model.js';
export * from './output-formats.js';
export * from './encoding.js';
export * from './surface-words.js';
export { valueAt, cubicBezier } from './keyframes.js';
export * from './time-map.js';
export { isSequencePattern, patternOfFile, sequenceFrame, sequenceFrameProblem } from './image-sequence.js';
export { missingGlyphsMessage } from './missing-glyphs.js';
export { audioStreamsOf, shownFootage } from './shown-footage.js';
export { lowSampleRate, MAX_FOOTAGE_FRAME_RATE, MAX_MOVING_SIDE, MIN_SAMPLE_RATE } from './footage-limits.js';
