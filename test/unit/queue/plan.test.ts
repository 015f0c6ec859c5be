// planItem checks an item against renderQueue.add's rules before it sizes anything by the item's range:
// a document that reached the render some other way (a composition shortened after its item was added)
// fails that item with a clear error instead of exhausting memory.
import { describe, expect, it } from 'vitest';
import type { Project, RenderQueueItem } from '../../../src/engine/index.js';
import { planItem } from '../../../src/render/queue/plan.js';
import { projectWith } from '../../helpers/projects.js';

function doc(item: Partial<RenderQueueItem>, comp: { duration?: number; frameRate?: number } = {}) {
  const project = JSON.parse(projectWith({ output: '/out/o_[##].png', ...item }, comp)) as Project;
  return { project, queued: project.renderQueue[0]! };
}

describe('planItem', () => {
  it('plans the frames of a valid item', () => {
    const { project, queued } = doc({ frameRange: { start: 3, end: 6 } });
    expect(planItem(project, queued).frames).toEqual([3, 4, 5, 6]);
  });

  it.each([
    ['a range of 2^32 frames on a 1 s composition', { frameRange: { start: 0, end: 2 ** 32 } }, {}],
    ['start after end', { frameRange: { start: 5, end: 2 } }, {}],
    ['a composition too long to render whole', {}, { duration: 1e9, frameRate: 240 }],
    ['mp4 into a .png template', { format: 'mp4' as const }, {}],
    ['alpha in JPEG', { format: 'jpeg' as const, output: '/out/o_[##].jpg', alpha: true }, {}],
  ])('refuses %s with bad_argument, allocating nothing', (_name, item, comp) => {
    const { project, queued } = doc(item, comp);
    expect(() => planItem(project, queued)).toThrow(expect.objectContaining({ code: 'bad_argument' }));
  });
});
