// Raw frames we rendered ourselves must not hit sharp's input pixel limit (0x3FFF squared, meant for hostile
// files): "Input image exceeds pixel limit" on big frames. A real over-limit frame needs 1 GiB of RGBA, so the
// test records the options each encoder gives sharp (the real sharp still encodes).
import { describe, expect, it, vi } from 'vitest';

const seen: Array<Record<string, unknown> | undefined> = [];

vi.mock('sharp', async (importOriginal) => {
  const real = (await importOriginal<{ default: (...a: unknown[]) => unknown }>()).default;
  const spy = Object.assign((input: unknown, options?: Record<string, unknown>) => {
    seen.push(options);
    return real(input, options);
  }, real);
  return { default: spy };
});

const { encodeFrame, encodeStill } = await import('../../../src/render/encode.js');

describe('sharp input pixel limit', () => {
  it.each(['png', 'jpeg', 'webp'] as const)('queue encoder (%s) lifts it for raw frames', async (kind) => {
    seen.length = 0;
    const payload = kind === 'png' ? { kind, level: 1 } : { kind, quality: 80 };
    const out = await encodeFrame(Buffer.alloc(4 * 4 * 4, 200), 4, 4, false, payload);
    expect(out.length).toBeGreaterThan(0);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toMatchObject({ raw: { width: 4, height: 4, channels: 4 }, limitInputPixels: false });
  });

  it.each(['png', 'jpeg', 'webp'] as const)('still encoder (%s) lifts it for raw frames', async (format) => {
    seen.length = 0;
    const frame = { width: 4, height: 4, rgba: Buffer.alloc(64, 200), premultiplied: false };
    expect((await encodeStill(frame, format)).length).toBeGreaterThan(0);
    expect(seen[0]).toMatchObject({ limitInputPixels: false });
  });
});
