/** Builds new layers with After Effects' defaults: full comp duration, centred, 100% scale and opacity. */
import type { CommandContext } from './catalog.js';
import { staticProp, type Composition, type Layer, type LayerSource, type Project } from './model.js';
import { layersPath, newId, uniqueName } from './resolve.js';

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

/**
 * Creates a layer at the top of `comp` and returns its id. It is inserted as one change (ctx.insert), so adding a
 * layer costs the same undo memory whatever the number of layers below it.
 */
export function insertLayer(
  ctx: CommandContext,
  comp: Composition,
  source: LayerSource,
  baseName: string,
  name?: string,
): string {
  let id = '';
  ctx.update((d) => void (id = newId(d, 'layer')));
  const size = layerSize(ctx.doc, comp, source);
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
  ctx.insert(layersPath(ctx.doc, comp.id), 0, layer);
  return id;
}
