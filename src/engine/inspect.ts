/**
 * A compact, agent-friendly view of the document: the project overview plus the active composition's layers.
 * Animated properties are summarised (keyframe times and values) rather than dumped raw.
 */
import type { MissingFootage } from './footage-presence.js';
import type { SessionView } from './catalog.js';
import { describeInputs } from './template-inputs.js';
import type { AnimatableProperty, Composition, Layer, Project } from './model.js';

type PropSummary = unknown;

function prop(p: AnimatableProperty): PropSummary {
  if (!p.keyframes.length) return p.value;
  return {
    animated: true,
    keyframes: p.keyframes.map((k) => ({ time: k.time, value: k.value, interpolation: k.interpolation })),
  };
}

function sourceSummary(layer: Layer): Record<string, unknown> {
  const s = layer.source;
  switch (s.kind) {
    case 'solid':
      return { color: prop(s.color), width: s.width, height: s.height };
    case 'text':
      return {
        text: s.text,
        fontFamily: s.fontFamily,
        fontWeight: s.fontWeight,
        fontSize: prop(s.fontSize),
        fill: prop(s.fill),
        stroke: s.stroke ? { color: prop(s.stroke.color), width: prop(s.stroke.width) } : null,
        align: s.align,
        lineHeight: s.lineHeight,
        tracking: prop(s.tracking),
        kerning: s.kerning,
        ligatures: s.ligatures,
        contextualAlternates: s.contextualAlternates,
      };
    case 'shape': {
      const g = s.shape;
      const geometry: Record<string, unknown> = { type: g.type };
      if (g.type === 'rectangle')
        Object.assign(geometry, { size: prop(g.size), roundness: prop(g.roundness) });
      if (g.type === 'ellipse') Object.assign(geometry, { size: prop(g.size) });
      if (g.type === 'polygon')
        Object.assign(geometry, {
          points: g.points,
          outerRadius: prop(g.outerRadius),
          innerRadius: g.innerRadius ? prop(g.innerRadius) : null,
        });
      if (g.type === 'path') Object.assign(geometry, { points: g.points, closed: g.closed });
      return {
        shape: geometry,
        fill: s.fill ? prop(s.fill.color) : null,
        gradient: s.gradient,
        stroke: s.stroke ? { color: prop(s.stroke.color), width: prop(s.stroke.width) } : null,
      };
    }
    case 'footage':
      return { footage: s.footage };
    case 'precomp':
      return { comp: s.comp };
    default:
      return {};
  }
}

export function inspectLayer(layer: Layer): Record<string, unknown> {
  const t = layer.transform;
  return {
    id: layer.id,
    name: layer.name,
    kind: layer.source.kind,
    enabled: layer.enabled,
    inPoint: layer.inPoint,
    outPoint: layer.outPoint,
    startTime: layer.startTime,
    // Only retimed layers carry a time map; the others play at speed 1.
    ...(layer.time && { time: layer.time }),
    // Only layers whose sound was set carry it; the others play at 0 dB, not muted.
    ...(layer.audio && {
      audio: {
        level: prop(layer.audio.level),
        muted: layer.audio.muted,
        // The file's first audio stream unless another was chosen.
        ...(layer.audio.stream !== undefined && { stream: layer.audio.stream }),
      },
    }),
    blendMode: layer.blendMode,
    parent: layer.parent,
    trackMatte: layer.trackMatte,
    transform: {
      anchorPoint: prop(t.anchorPoint),
      position: prop(t.position),
      scale: prop(t.scale),
      rotation: prop(t.rotation),
      opacity: prop(t.opacity),
    },
    // Only fitted layers (layer.fit): the mode a new file of another size is fitted by again.
    ...(layer.fit && { fit: layer.fit }),
    effects: layer.effects.map((e) => ({
      id: e.id,
      type: e.type,
      enabled: e.enabled,
      params: Object.fromEntries(Object.entries(e.params).map(([k, v]) => [k, prop(v)])),
    })),
    source: sourceSummary(layer),
  };
}

/** A composition as project.inspect lists it (project.compositions). */
export type CompSummary = ReturnType<typeof compSummary>;

function compSummary(c: Composition) {
  return {
    id: c.id,
    name: c.name,
    width: c.width,
    height: c.height,
    frameRate: c.frameRate,
    duration: c.duration,
    frames: frameCount(c),
    backgroundColor: c.backgroundColor,
    layers: c.layers.length,
    // Only templates carry inputs; with their bindings, what a render's props may set.
    ...(c.inputs?.length && { inputs: describeInputs(c) }),
  };
}

/** A composition in detail: its summary and every layer. */
const detailed = (c: Composition) => ({ ...compSummary(c), layers: c.layers.map(inspectLayer) });

/** Number of frames in a composition: frames 0 .. frames-1. */
export function frameCount(c: Pick<Composition, 'duration' | 'frameRate'>): number {
  return Math.max(1, Math.round(c.duration * c.frameRate));
}

/** A composition's layers as names and kinds, top to bottom: enough to pick one by name. */
function layerList(c: Composition) {
  return c.layers.map((l) => ({ id: l.id, name: l.name, kind: l.source.kind }));
}

/**
 * The project overview and the active composition in detail; with `allLayers`, every composition's summary
 * also lists its layers (id, name, kind), which `effectcraft-cli inspect` prints; footage in `missing`
 * (footage-presence.ts) is marked `missing: true` when its file is not there, and a sequence with frames gone
 * gets `missingFrames: {count, first}`.
 */
export function inspectDocument(
  view: SessionView,
  options: { allLayers?: boolean; missing?: readonly MissingFootage[]; comp?: Composition } = {},
): Record<string, unknown> {
  const marks = new Map(
    (options.missing ?? []).map((m) => [
      m.id,
      m.missingFrames ? { missingFrames: m.missingFrames } : { missing: true as const },
    ]),
  );
  const doc: Project = view.doc;
  const active = doc.items.find((i): i is Composition => i.type === 'composition' && i.id === doc.activeComp);
  return {
    project: {
      name: doc.name,
      path: view.projectPath,
      // Edits not in the file: an agent about to open another project (which drops them) should save first.
      unsaved: view.unsaved,
      canUndo: view.canUndo,
      canRedo: view.canRedo,
      compositions: doc.items
        .filter((i): i is Composition => i.type === 'composition')
        .map((c) => (options.allLayers ? { ...compSummary(c), layerList: layerList(c) } : compSummary(c))),
      footage: doc.items.filter((i) => i.type === 'footage').map((f) => ({ ...f, ...marks.get(f.id) })),
      renderQueue: doc.renderQueue,
      activeComp: doc.activeComp,
    },
    // One composition in detail: the active one, or the one asked for (`comp`), under its own key.
    ...(options.comp
      ? { composition: detailed(options.comp) }
      : { activeComposition: active ? detailed(active) : null }),
  };
}
