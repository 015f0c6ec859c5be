/** Commands that change a layer's place, links, timing and blending. */
import { z } from 'zod';
import { decompose, IDENTITY, invert, mul } from '../affine.js';
import { worldMatrices } from '../layer-transform.js';
import { defineCommand, DESTRUCTIVE_EDIT, EDIT, IDEMPOTENT_EDIT, type CommandContext } from '../catalog.js';
import { EngineError } from '../errors.js';
import { BlendMode, MATTE_MODES, type Composition, type Layer, type Project } from '../model.js';
import { refuseSoundOnly } from '../audio-streams.js';
import { draftLayer, findComp, findLayer, layersPath, newId, uniqueName } from '../resolve.js';
import { needsComp } from './layer-add.js';
import { CompRef, LayerRef } from './params.js';
import { warnBeyondSource } from './source-span.js';
import { warnOutsideComp } from './unit-hints.js';

export const target = { comp: CompRef.optional(), layer: LayerRef };

/** The composition and layer a command targets (ids, or unique names). */
export function locate(
  doc: Parameters<typeof findComp>[0],
  p: { comp?: string; layer: string },
): { comp: Composition; layer: Layer } {
  const comp = findComp(doc, p.comp);
  return { comp, layer: findLayer(comp, p.layer) };
}

export const layerDelete = defineCommand({
  id: 'layer.delete',
  title: 'Delete Layer',
  category: 'Layer',
  description:
    'Deletes a layer. Children are unparented and keep their place on screen (at comp time 0, as layer.setParent with parent: null; keyframed transforms are left as they are); track mattes that used it are removed.',
  example: { layer: 'Hello' },
  params: z.strictObject(target),
  pathParams: {},
  enabled: needsComp,
  annotations: DESTRUCTIVE_EDIT,
  mutates: true,
  run(ctx, p) {
    const { comp, layer } = locate(ctx.doc, p);
    // One change for the removal (whatever the number of layers) and one per layer that linked to it.
    ctx.remove(layersPath(ctx.doc, comp.id), comp.layers.indexOf(layer));
    const linked = comp.layers.filter((l) => l.parent === layer.id || l.trackMatte?.layer === layer.id);
    // A child's values are in its parent's space: read as comp values they would move it (a child of a rotated,
    // scaled null flew off screen). Re-expressed as layer.setParent null does, from the document before the removal.
    const kept = new Map(
      linked.filter((l) => l.parent === layer.id).map((l) => [l.id, keepInPlace(ctx, comp, l, null, 0)]),
    );
    if (linked.length) {
      ctx.update((d) => {
        for (const { id } of linked) {
          const l = draftLayer(d, comp.id, id);
          if (l.parent === layer.id) {
            l.parent = null;
            const k = kept.get(id);
            if (k) {
              l.transform.position.value = k.position;
              l.transform.scale.value = k.scale;
              l.transform.rotation.value = k.rotation;
            }
          }
          if (l.trackMatte?.layer === layer.id) l.trackMatte = null;
        }
      });
    }
    return { id: layer.id, deleted: true };
  },
});

export const layerDuplicate = defineCommand({
  id: 'layer.duplicate',
  title: 'Duplicate Layer',
  category: 'Layer',
  description: 'Copies a layer (with effects and keyframes) directly above the original. Returns the new id.',
  example: { layer: 'Hello', name: 'Hello 2' },
  params: z.strictObject({ ...target, name: z.string().min(1).optional() }),
  pathParams: {},
  enabled: needsComp,
  annotations: EDIT,
  mutates: true,
  run(ctx, p) {
    const { comp, layer } = locate(ctx.doc, p);
    const copy = structuredClone(layer) as Layer;
    ctx.update((d) => {
      copy.id = newId(d, 'layer');
      for (const e of copy.effects) e.id = newId(d, 'fx');
    });
    copy.name = p.name ?? uniqueName(comp.layers, layer.name);
    // Directly above the original, as one change (a splice in the draft would record every layer below).
    ctx.insert(layersPath(ctx.doc, comp.id), comp.layers.indexOf(layer), copy);
    return { id: copy.id };
  },
});

export const layerMove = defineCommand({
  id: 'layer.move',
  title: 'Move Layer in Stack',
  category: 'Layer',
  description: 'Moves a layer to a stack index: 0 is the top.',
  example: { layer: 'Hello', index: 0 },
  params: z.strictObject({ ...target, index: z.number().int().min(0).describe('Stack index, 0 = the top') }),
  pathParams: {},
  enabled: needsComp,
  annotations: IDEMPOTENT_EDIT,
  mutates: true,
  run(ctx, p) {
    const { comp, layer } = locate(ctx.doc, p);
    if (p.index >= comp.layers.length) {
      throw new EngineError(
        'bad_argument',
        `Index ${p.index} is out of range: "${comp.name}" has ${comp.layers.length} layers.`,
        `Pass an index from 0 to ${comp.layers.length - 1}.`,
      );
    }
    const from = comp.layers.indexOf(layer);
    if (from !== p.index) {
      // Two changes, out and back in, however far it moves.
      const path = layersPath(ctx.doc, comp.id);
      ctx.remove(path, from);
      ctx.insert(path, p.index, layer);
    }
    return { id: layer.id, index: p.index };
  },
});

type Kept = { position: [number, number]; scale: [number, number]; rotation: number };

/**
 * The transform that keeps `layer` where it is on screen at comp time `time` once its parent is `parentId`
 * (After Effects' parenting). Null when its transform is keyframed (values are left alone, with a warning).
 */
function keepInPlace(
  ctx: CommandContext,
  comp: Composition,
  layer: Layer,
  parentId: string | null,
  time: number,
): Kept | null {
  const tr = layer.transform;
  if ([tr.position, tr.scale, tr.rotation, tr.anchorPoint].some((prop) => prop.keyframes.length)) {
    ctx.warn(
      `"${layer.name}" has a keyframed transform; its values are now relative to the new parent and were not changed.`,
    );
    return null;
  }
  const world = worldMatrices(comp, time);
  const parent = parentId ? comp.layers.find((l) => l.id === parentId) : undefined;
  const inverse = invert(parent ? world(parent) : IDENTITY);
  if (!inverse) {
    ctx.warn('The new parent has a zero scale, so the layer could not keep its place.');
    return null;
  }
  const current = world(layer);
  if (Math.abs(current[0] * current[3] - current[1] * current[2]) < 1e-12) {
    ctx.warn(`"${layer.name}" is scaled to zero on screen, so it keeps its values instead of its place.`);
    return null;
  }
  const d = decompose(mul(inverse, current), tr.anchorPoint.value);
  // A ten-thousandth of a pixel (or percent, or degree) is invisible; rounding keeps float noise out of the values.
  const round = (v: number) => Math.round(v * 1e4) / 1e4 + 0;
  return {
    position: [round(d.position[0]), round(d.position[1])],
    scale: [round(d.scale[0]), round(d.scale[1])],
    rotation: round(d.rotation),
  };
}

export const layerSetParent = defineCommand({
  id: 'layer.setParent',
  title: 'Set Parent',
  category: 'Layer',
  description:
    "Parents a layer to another (its transform then follows the parent), or unparents it with parent: null. As in After Effects, the layer stays where it is on screen (at comp time `time`, default 0): its position, scale and rotation are re-expressed in the new parent's space. jump: true keeps the values as they are instead (the layer jumps). Keyframed transforms are never rewritten. A layer that plays sound only has no transform: it can be neither parented nor a parent.",
  example: { layer: 'Hello', parent: 'Controller' },
  params: z.strictObject({
    ...target,
    parent: LayerRef.nullable(),
    jump: z.boolean().optional().describe('Keep the transform values (the layer moves with its new parent)'),
    time: z.number().min(0).optional().describe('Comp time at which the layer keeps its place (default 0)'),
  }),
  pathParams: {},
  enabled: needsComp,
  annotations: IDEMPOTENT_EDIT,
  mutates: true,
  run(ctx, p) {
    const { comp, layer } = locate(ctx.doc, p);
    let parentId: string | null = null;
    if (p.parent !== null) {
      refuseSoundOnly(ctx.doc, layer, 'to follow a parent');
      const parent = findLayer(comp, p.parent);
      refuseSoundOnly(ctx.doc, parent, 'for other layers to follow');
      // Walk up from the new parent: reaching the layer itself means a cycle.
      for (let cur: Layer | undefined = parent; cur; cur = comp.layers.find((l) => l.id === cur!.parent)) {
        if (cur.id === layer.id) {
          throw new EngineError(
            'bad_argument',
            `Parenting "${layer.name}" to "${parent.name}" would make a cycle.`,
            'Pick a parent that is not the layer or one of its children.',
          );
        }
      }
      parentId = parent.id;
    }
    const kept = p.jump ? null : keepInPlace(ctx, comp, layer, parentId, p.time ?? 0);
    ctx.update((d) => {
      const l = draftLayer(d, comp.id, layer.id);
      l.parent = parentId;
      if (kept) {
        l.transform.position.value = kept.position;
        l.transform.scale.value = kept.scale;
        l.transform.rotation.value = kept.rotation;
      }
    });
    const t = kept ?? {
      position: layer.transform.position.value,
      scale: layer.transform.scale.value,
      rotation: layer.transform.rotation.value,
    };
    return { id: layer.id, parent: parentId, position: t.position, scale: t.scale, rotation: t.rotation };
  },
});

/** A command that sets one plain field of a layer from one param (blend mode, visibility, name). */
function layerFieldCommand<F extends 'blendMode' | 'enabled' | 'name'>(spec: {
  id: string;
  title: string;
  description: string;
  example: { layer: string; [param: string]: unknown };
  param: string;
  field: F;
  schema: z.ZodType<Layer[F]>;
  /** Refuses the edit on this layer (before anything changes), when it would be stored and do nothing. */
  check?: (doc: Project, layer: Layer) => void;
}) {
  return defineCommand({
    id: spec.id,
    title: spec.title,
    example: spec.example,
    category: 'Layer',
    description: spec.description,
    params: z.strictObject({ ...target, [spec.param]: spec.schema }),
    pathParams: {},
    enabled: needsComp,
    annotations: IDEMPOTENT_EDIT,
    mutates: true,
    run(ctx, p) {
      const { comp, layer } = locate(ctx.doc, p as { comp?: string; layer: string });
      const value = (p as Record<string, unknown>)[spec.param] as Layer[F];
      spec.check?.(ctx.doc, layer);
      ctx.update((d) => void (draftLayer(d, comp.id, layer.id)[spec.field] = value));
      return { id: layer.id, [spec.param]: value };
    },
  });
}

export const layerSetBlendMode = layerFieldCommand({
  id: 'layer.setBlendMode',
  title: 'Set Blend Mode',
  description:
    'Sets how a layer blends with the layers below it. A layer that plays sound only has no picture to blend (refused).',
  example: { layer: 'Hello', mode: 'screen' },
  param: 'mode',
  field: 'blendMode',
  schema: BlendMode,
  check: (doc, layer) => refuseSoundOnly(doc, layer, 'to blend'),
});

export const layerSetTrackMatte = defineCommand({
  id: 'layer.setTrackMatte',
  title: 'Set Track Matte',
  category: 'Layer',
  description:
    "Uses another layer of the same composition as this layer's matte (the matte layer itself is then hidden), or removes it with matte: null. A layer that plays sound only has no picture and cannot be a matte.",
  example: { layer: 'Background', matte: 'Hello', mode: 'alpha' },
  params: z.strictObject({
    ...target,
    matte: LayerRef.nullable(),
    mode: z.enum(MATTE_MODES).optional().describe('Default alpha'),
  }),
  pathParams: {},
  enabled: needsComp,
  annotations: IDEMPOTENT_EDIT,
  mutates: true,
  run(ctx, p) {
    const { comp, layer } = locate(ctx.doc, p);
    let matte: Layer['trackMatte'] = null;
    if (p.matte !== null) {
      const m = findLayer(comp, p.matte);
      if (m.id === layer.id)
        throw new EngineError(
          'bad_argument',
          'A layer cannot be its own track matte.',
          'Pick another layer as the matte.',
        );
      refuseSoundOnly(
        ctx.doc,
        m,
        'to be a track matte (the layer it mattes would be hidden everywhere)',
        'Pick a layer with a picture as the matte: a shape, text, solid, image or video layer.',
      );
      matte = { layer: m.id, mode: p.mode ?? 'alpha' };
    }
    ctx.update((d) => void (draftLayer(d, comp.id, layer.id).trackMatte = matte));
    return { id: layer.id, trackMatte: matte };
  },
});

/**
 * Layer times within a year either way: far beyond any composition (24 h at most), and small enough that a time
 * and a frame apart stay two numbers (1e300 and 1e300 + 4 are the same double, and the error then named values
 * the caller never sent).
 */
const LayerTime = z.number().min(-31_536_000).max(31_536_000);
export const layerSetTiming = defineCommand({
  id: 'layer.setTiming',
  title: 'Set Layer Timing',
  category: 'Layer',
  description:
    "Sets in point, out point (comp seconds) and start time (the comp time of the layer's time 0). A start time given alone slides the layer: its in and out points move with it, as dragging it along After Effects' timeline (or setting a layer's startTime in its scripting) does; given with them, each is taken as given.",
  example: { layer: 'Hello', inPoint: 1, outPoint: 4 },
  params: z.strictObject({
    ...target,
    inPoint: LayerTime.optional().describe('Seconds, comp time at which the layer starts to show'),
    outPoint: LayerTime.optional().describe('Seconds, comp time at which it stops showing (after inPoint)'),
    startTime: LayerTime.optional().describe("Seconds, the comp time of the layer's time 0"),
  }),
  pathParams: {},
  enabled: needsComp,
  annotations: IDEMPOTENT_EDIT,
  mutates: true,
  run(ctx, p) {
    const { comp, layer } = locate(ctx.doc, p);
    // A start time alone moves the whole layer; otherwise a later start would cut off its end.
    const slide =
      p.startTime !== undefined && p.inPoint === undefined && p.outPoint === undefined
        ? p.startTime - layer.startTime
        : 0;
    const inPoint = p.inPoint ?? layer.inPoint + slide;
    const outPoint = p.outPoint ?? layer.outPoint + slide;
    if (outPoint <= inPoint)
      throw new EngineError(
        'bad_argument',
        `outPoint (${outPoint}) must be after inPoint (${inPoint}).`,
        'Pass an outPoint greater than the inPoint.',
      );
    ctx.update((d) => {
      const l = draftLayer(d, comp.id, layer.id);
      l.inPoint = inPoint;
      l.outPoint = outPoint;
      if (p.startTime !== undefined) l.startTime = p.startTime;
    });
    warnOutsideComp(comp, inPoint, outPoint, ctx.warn);
    const startTime = p.startTime ?? layer.startTime;
    warnBeyondSource(ctx.doc, comp, { ...layer, inPoint, outPoint, startTime }, ctx.warn);
    return { id: layer.id, inPoint, outPoint, startTime };
  },
});

export const layerSetEnabled = layerFieldCommand({
  id: 'layer.setEnabled',
  title: 'Show/Hide Layer',
  description: "Turns a layer's video on or off.",
  example: { layer: 'Hello', enabled: false },
  param: 'enabled',
  field: 'enabled',
  schema: z.boolean(),
});

export const layerRename = layerFieldCommand({
  id: 'layer.rename',
  title: 'Rename Layer',
  description: 'Renames a layer.',
  example: { layer: 'Hello', name: 'Title' },
  param: 'name',
  field: 'name',
  schema: z.string().min(1),
});

export const layerEditCommands = [
  layerDelete,
  layerDuplicate,
  layerMove,
  layerSetParent,
  layerSetBlendMode,
  layerSetTrackMatte,
  layerSetTiming,
  layerSetEnabled,
  layerRename,
];
