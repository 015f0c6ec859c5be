// The studio's Project panel line for each kind of footage: a sound file shows its length, not a 1x1 size.
import { describe, expect, it } from 'vitest';
import type { FootageItem } from '../../../src/engine/model.js';
import { footageFacts } from '../../../src/studio/ui/panels/footage-facts.js';

type Media = NonNullable<FootageItem['media']>;

const base: Media = {
  kind: 'still',
  duration: 2,
  frameRate: null,
  frameCount: null,
  variableFrameRate: false,
  pixelAspect: 1,
  alpha: false,
  rotation: 0,
  codec: null,
  sequence: null,
  audio: null,
};

const item = (width: number, height: number, format: string, media?: Partial<Media>): FootageItem => ({
  type: 'footage',
  id: 'f',
  name: 'f',
  path: '/f',
  width,
  height,
  format,
  ...(media && { media: { ...base, ...media } }),
});

describe('footageFacts', () => {
  it('shows sound by its length, video by size, rate, length and sound, sequences by frames, stills by size', () => {
    expect(footageFacts(item(1, 1, 'wav', { kind: 'audio', duration: 12.345 }))).toBe('sound · 12.35s · wav');
    const audio = { codec: 'aac', sampleRate: 48000, channels: 2, duration: 3 };
    const video = { kind: 'video' as const, frameRate: 29.97003, duration: 3, audio };
    expect(footageFacts(item(1920, 1080, 'mov', video))).toBe('1920×1080 · 29.97 fps · 3s · sound');
    expect(footageFacts(item(64, 48, 'png', { kind: 'sequence', frameCount: 48 }))).toBe(
      '64×48 · 48 frames · png',
    );
    expect(footageFacts(item(8, 8, 'png'))).toBe('8×8 · png');
  });
});
