/** Hand-written project files for tests of what opening a file accepts. */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A project with one 1 s composition (10 frames, 32x18 unless given) and one queue item with `item`'s fields. */
export function projectWith(item: Record<string, unknown>, comp: Record<string, unknown> = {}): string {
  return JSON.stringify({
    format: 'effectcraft-project',
    version: 1,
    name: 'hand-edited',
    items: [
      {
        type: 'composition',
        id: 'comp_1',
        name: 'Main',
        width: 32,
        height: 18,
        frameRate: 10,
        duration: 1,
        backgroundColor: '#000000',
        layers: [],
        ...comp,
      },
    ],
    renderQueue: [
      {
        id: 'rq_2',
        comp: 'comp_1',
        output: 'out/o_[##].png',
        format: 'png',
        frameRange: null,
        scale: 1,
        skipExisting: false,
        overflow: [],
        alpha: false,
        audio: true,
        ...item,
      },
    ],
    activeComp: 'comp_1',
    nextId: 3,
  });
}

/** A project file in `dir` (p.ecproj) whose one item renders `seconds` of a 640x360 30 fps MP4 to out/o.mp4. */
export async function videoProject(dir: string, seconds: number): Promise<string> {
  const project = join(dir, 'p.ecproj');
  const comp = { width: 640, height: 360, frameRate: 30, duration: seconds, backgroundColor: '#336699' };
  await writeFile(project, projectWith({ output: 'out/o.mp4', format: 'mp4' }, comp));
  return project;
}
