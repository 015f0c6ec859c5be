import type { FrameRenderer } from '../../src/render/types.js';
export function frameColor(frame: number, layers: number): [number, number, number, number];
export function createFrameRenderer(): FrameRenderer;
