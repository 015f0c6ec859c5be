/** layer.fit: Fit to Comp (the fitting itself is ../layer-fit.ts, which layer.addFootage's fit shares). */
import { z } from 'zod';
import { defineCommand, IDEMPOTENT_EDIT } from '../catalog.js';
import { fitLayer, FitModeParam } from '../layer-fit.js';
import { needsComp } from './layer-add.js';
import { locate, target } from './layer-edit.js';

export const layerFit = defineCommand({
  id: 'layer.fit',
  title: 'Fit to Comp',
  category: 'Layer',
  description:
    'Scales a footage, solid or precomp layer to its composition and centres it: contain (default; all of the picture shows), cover (fills the frame, cropping two edges), stretch (exactly the frame), width or height (that side matches, proportions kept). Sets transform.scale and transform.position once (the anchor stays); refused for a parented layer or an animated anchor, position or scale. A turned layer is fitted as if upright, with a warning. layer.addFootage takes the same modes as fit.',
  example: { layer: 'Interview', mode: 'cover' },
  params: z.strictObject({ ...target, mode: FitModeParam.default('contain') }),
  pathParams: {},
  enabled: needsComp,
  annotations: IDEMPOTENT_EDIT,
  mutates: true,
  run(ctx, p) {
    const { comp, layer } = locate(ctx.doc, p);
    return { layer: layer.id, mode: p.mode, ...fitLayer(ctx, comp, layer, p.mode) };
  },
});
