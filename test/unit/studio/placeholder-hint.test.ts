// The viewer's words for missing footage: a clip has a placeholder, a sound file has its sound left out, and
// with both gone each is told apart (one sentence read as if the sound too were drawn as a placeholder).
import { describe, expect, it } from 'vitest';
import type { FootageItem, Project } from '../../../src/engine/model.js';
import { placeholderHint } from '../../../src/studio/ui/panels/placeholder-hint.js';

const footage = (id: string, kind: 'video' | 'audio'): FootageItem => ({
  type: 'footage',
  id,
  name: id,
  path: `/media/${id}`,
  width: kind === 'audio' ? 1 : 64,
  height: kind === 'audio' ? 1 : 36,
  format: kind === 'audio' ? 'wav' : 'mp4',
  media: {
    kind,
    duration: 2,
    frameRate: kind === 'audio' ? null : 25,
    frameCount: kind === 'audio' ? null : 50,
    variableFrameRate: false,
    pixelAspect: 1,
    alpha: false,
    rotation: 0,
    codec: null,
    sequence: null,
    audio: null,
  },
});

function doc(ids: Array<[string, 'video' | 'audio']>): Project {
  const layers = ids.map(([id]) => ({ source: { kind: 'footage', footage: id } }));
  return {
    items: [
      ...ids.map(([id, kind]) => footage(id, kind)),
      { type: 'composition', id: 'c', name: 'C', layers },
    ],
  } as unknown as Project;
}

describe('placeholderHint', () => {
  it('a missing clip: a placeholder; a missing sound: its sound left out', () => {
    expect(placeholderHint(doc([['clip', 'video']]), 'c', ['clip'], {})).toBe(
      '"clip" is missing, so a placeholder is shown: click Relink beside it in the Project panel and give its new place.',
    );
    expect(placeholderHint(doc([['tune', 'audio']]), 'c', ['tune'], {})).toBe(
      '"tune" is missing, so its sound is left out: click Relink beside it in the Project panel and give its new place.',
    );
  });

  it('a clip and sound files both missing are told apart', () => {
    const d = doc([
      ['tune', 'audio'],
      ['clip', 'video'],
      ['voice', 'audio'],
    ]);
    expect(placeholderHint(d, 'c', ['tune', 'clip', 'voice'], {})).toBe(
      '"clip" is missing, so a placeholder is shown, and "tune" (and 1 more) is missing, so its sound is left out: click Relink beside each in the Project panel and give its new place.',
    );
  });

  it('nothing to say for footage the composition does not show', () => {
    expect(placeholderHint(doc([['clip', 'video']]), 'c', ['other'], {})).toBeNull();
  });
});
