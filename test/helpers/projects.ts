/** Hand-written project files for tests of what opening a file accepts. */

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
