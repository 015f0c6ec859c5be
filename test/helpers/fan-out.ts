/**
 * Precomp fan-outs as command steps: `levels` compositions above a leaf, each holding `width` precomp layers of
 * the one below. The steps run through an engine in process or go over the wire in one command_batch.
 */

export interface Step {
  id: string;
  params: Record<string, unknown>;
}

export interface FanOutOptions {
  levels: number;
  width: number;
  /** Comp size (every level and the leaf). */
  size?: number;
  /**
   * Offset each layer's start time so that no two precomps show their composition at the same time: layer i of
   * level l starts at -i × width^(l-1) × 2^-20 s (exact in binary, so every path gives its own local time).
   * Without it every layer of a level shows the same frame, which memoisation composes once.
   */
  offsetTimes?: boolean;
  /** Blurs the leaf's circle by this radius, which makes every leaf frame costly to draw. */
  leafBlur?: number;
}

/** The comp at the top of the fan-out is named `F<levels>`; the leaf is `F0` (an opaque solid and a circle). */
export function fanOutSteps({
  levels,
  width,
  size = 16,
  offsetTimes = false,
  leafBlur,
}: FanOutOptions): Step[] {
  const comp = (name: string) => ({
    id: 'comp.new',
    params: { name, width: size, height: size, duration: 10, frameRate: 10 },
  });
  const steps: Step[] = [
    comp('F0'),
    { id: 'layer.addSolid', params: { comp: 'F0', color: '#204080' } },
    {
      id: 'layer.addShape',
      params: {
        comp: 'F0',
        name: 'Circle',
        shape: { type: 'ellipse', size: [size / 2, size / 2] },
        fill: '#f0c040',
      },
    },
  ];
  if (leafBlur !== undefined) {
    steps.push({
      id: 'effect.add',
      params: { comp: 'F0', layer: 'Circle', effect: 'gaussianBlur', params: { radius: leafBlur } },
    });
  }
  for (let l = 1; l <= levels; l++) {
    steps.push(comp(`F${l}`));
    for (let i = 0; i < width; i++) {
      const name = `P${l}_${i}`;
      steps.push({ id: 'layer.addPrecomp', params: { comp: `F${l}`, source: `F${l - 1}`, name } });
      if (offsetTimes && i > 0) {
        const startTime = -i * width ** (l - 1) * 2 ** -20;
        steps.push({ id: 'layer.setTiming', params: { comp: `F${l}`, layer: name, startTime } });
      }
    }
  }
  return steps;
}

/** A chain: `depth` compositions, each holding one precomp layer of the one below; the top one is `F<depth>`. */
export function chainSteps(depth: number): Step[] {
  return fanOutSteps({ levels: depth, width: 1 });
}
