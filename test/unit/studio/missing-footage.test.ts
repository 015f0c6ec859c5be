// When the page asks the app which footage files are missing or changed: at once when the document's footage
// changes (a relink included), and every few seconds in between.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Project } from '../../../src/engine/model.js';
import type { LiveChannel } from '../../../src/studio/ui/live/channel.js';
import { MissingFootageWatch } from '../../../src/studio/ui/live/missing-footage.js';

const clip = (seconds: number) =>
  ({
    type: 'footage',
    id: 'footage_1',
    name: 'clip',
    path: '/footage/clip.mp4',
    width: 64,
    height: 48,
    format: 'mp4',
    media: { kind: 'video', duration: seconds, frameRate: 10, frameCount: seconds * 10 },
  }) as unknown;
const doc = (item: unknown) => ({ items: [item] }) as unknown as Project;

describe('MissingFootageWatch', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('asks again at once after a relink to the same path, not at the next poll', async () => {
    const request = vi.fn(() => Promise.resolve({ ids: [], changed: [] }));
    const watch = new MissingFootageWatch({ request } as unknown as LiveChannel, () => undefined);
    watch.update(doc(clip(2)));
    await vi.advanceTimersByTimeAsync(0);
    expect(request).toHaveBeenCalledTimes(1);
    // Apply on a clip marked "changed": footage.relink to the path as it is records the file's new length.
    watch.update(doc(clip(1)));
    await vi.advanceTimersByTimeAsync(0);
    expect(request).toHaveBeenCalledTimes(2);
    // An edit that leaves the footage as it was asks nothing before the poll.
    watch.update(doc(clip(1)));
    await vi.advanceTimersByTimeAsync(0);
    expect(request).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(3000);
    expect(request).toHaveBeenCalledTimes(3);
  });
});
