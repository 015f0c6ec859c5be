/** Builds new layers with After Effects' defaults: full comp duration, centred, 100% scale and opacity. */
import type { Draft } from 'immer';
import { staticProp, type Composition, type Layer, type LayerSource, type Project } from './model.js';
import { newId, uniqueName } from './resolve.js';

/** The size of a layer's own space, or null for layers drawn around their origin (text, shape, null). */
export function layerSize(doc: Project, comp: Composition, source: LayerSource): [number, number] | null {
  switch (source.kind) {
    case 'solid':
      return [source.width, source.height];
    case 'footage': {
      const f = doc.items.find((i) => i.id === source.footage);
      return f && f.type === 'footage' ? [f.width, f.height] : null;
    }
    case 'precomp': {
      const c = doc.items.find((i) => i.id === source.comp);
      return c && c.type === 'composition' ? [c.width, c.height] : null;
    }
    case 'adjustment':
      return [comp.width, comp.height];
    default:
      return null;
  }
}

/** Creates a layer at the top of `comp` and returns its id. Call inside ctx.update. */
export function insertLayer(
  draft: Draft<Project>,
  comp: Composition,
  source: LayerSource,
  baseName: string,
  name?: string,
): string {
  const id = newId(draft, 'layer');
  const size = layerSize(draft as Project, comp, source);
  const layer: Layer = {
    id,
    name: name ?? uniqueName(comp.layers, baseName),
    enabled: true,
    inPoint: 0,
    outPoint: comp.duration,
    startTime: 0,
    blendMode: 'normal',
    parent: null,
    trackMatte: null,
    transform: {
      anchorPoint: staticProp(size ? [size[0] / 2, size[1] / 2] : [0, 0]),
      position: staticProp([comp.width / 2, comp.height / 2]),
      scale: staticProp([100, 100]),
      rotation: staticProp(0),
      opacity: staticProp(100),
    },
    effects: [],
    source,
  };
  const target = draft.items.find((i) => i.id === comp.id);
  if (target?.type === 'composition') target.layers.unshift(layer);
  return id;
}
