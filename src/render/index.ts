/** The renderer's public surface: the frame renderer (Skia), still encoders (sharp), and the font list. */
export { createFrameRenderer } from './renderer.js';
export { outputSize } from './output-size.js';
export { encodeStill, straightRgba, STILL_FORMATS, type StillFormat, type EncodeOptions } from './encode.js';
export { availableFamilies } from './fonts.js';
export type { FrameRenderer, FrameRendererOptions, RenderOptions, RenderedFrame } from './types.js';
