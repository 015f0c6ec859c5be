/**
 * The editable properties of a layer, as the Properties panel shows them and as the UI tools name them
 * (`Properties/Transform/Position`). One list serves both, so a control path always means the field on screen.
 */
import { effectType } from '../../../engine/effect-types.js';
import { valueAt } from '../../../engine/keyframes.js';
import type {
  AnimatableProperty,
  Composition,
  Keyframe,
  Layer,
  Project,
  PropertyValue,
} from '../../../engine/model.js';
import { layerHasSound, playsSoundOnly } from '../../../engine/shown-footage.js';
import { layerTimeAt } from './doc.js';

export type RowType = 'number' | 'vec2' | 'color' | 'string';

export interface PropertyRow {
  /** 'Transform', 'Text', 'Solid', 'Shape', 'Audio' or 'Effects/<effect name>'. */
  group: string;
  /** As shown: 'Position', 'Fill Color', 'Radius'. */
  name: string;
  /** The engine's property path: 'transform.position', 'audio.level', 'effects.fx_3.radius'. */
  path: string;
  type: RowType;
  unit?: string;
  min?: number;
  max?: number;
  /** Value change per pixel of scrubbing. */
  step?: number;
  precision?: number;
  /** The stored property: `{value, keyframes}` when animatable, else the plain value. */
  source: AnimatableProperty | string;
}

export const controlPathOf = (row: PropertyRow) => `Properties/${row.group}/${row.name}`;

const still = <T extends PropertyValue>(value: T): AnimatableProperty =>
  ({ value, keyframes: [] }) as unknown as AnimatableProperty;

/** "mapBlackTo" -> "Map Black To". */
const titleCase = (key: string) =>
  key.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase());

/** `doc` tells whether the layer has sound (its footage's file, or what a precomp holds): then its level too. */
export function layerProperties(layer: Layer, doc: Pick<Project, 'items'> | null): PropertyRow[] {
  const t = layer.transform;
  // A sound file has no picture to place: its layer has no transform worth showing (its Time and Audio are all).
  const rows: PropertyRow[] =
    doc && playsSoundOnly(doc, layer)
      ? []
      : [
          row('Transform', 'Anchor Point', 'transform.anchorPoint', 'vec2', t.anchorPoint, { unit: 'px' }),
          row('Transform', 'Position', 'transform.position', 'vec2', t.position, { unit: 'px' }),
          row('Transform', 'Scale', 'transform.scale', 'vec2', t.scale, { unit: '%' }),
          row('Transform', 'Rotation', 'transform.rotation', 'number', t.rotation, { unit: '°', step: 0.5 }),
          row('Transform', 'Opacity', 'transform.opacity', 'number', t.opacity, {
            unit: '%',
            min: 0,
            max: 100,
            step: 0.5,
          }),
        ];
  const src = layer.source;
  if (src.kind === 'text') {
    const stroke = src.stroke ?? { color: still('#000000'), width: still(0) };
    rows.push(
      { group: 'Text', name: 'Text', path: 'text.text', type: 'string', source: src.text },
      row('Text', 'Font Size', 'text.fontSize', 'number', src.fontSize, { unit: 'px', min: 1, max: 2000 }),
      row('Text', 'Tracking', 'text.tracking', 'number', src.tracking, { unit: '‰', precision: 0 }),
      row('Text', 'Fill Color', 'text.fill', 'color', src.fill),
      row('Text', 'Stroke Color', 'text.strokeColor', 'color', stroke.color),
      row('Text', 'Stroke Width', 'text.strokeWidth', 'number', stroke.width, {
        unit: 'px',
        min: 0,
        max: 500,
      }),
    );
  } else if (src.kind === 'solid') {
    rows.push(row('Solid', 'Color', 'solid.color', 'color', src.color));
  } else if (src.kind === 'shape') {
    const shape = src.shape;
    if (shape.type === 'rectangle' || shape.type === 'ellipse') {
      rows.push(row('Shape', 'Size', 'shape.size', 'vec2', shape.size, { unit: 'px', min: 0 }));
    }
    if (shape.type === 'rectangle') {
      rows.push(
        row('Shape', 'Roundness', 'shape.roundness', 'number', shape.roundness, { unit: 'px', min: 0 }),
      );
    }
    if (shape.type === 'polygon') {
      rows.push(
        row('Shape', 'Outer Radius', 'shape.outerRadius', 'number', shape.outerRadius, {
          unit: 'px',
          min: 0,
        }),
      );
      if (shape.innerRadius) {
        rows.push(
          row('Shape', 'Inner Radius', 'shape.innerRadius', 'number', shape.innerRadius, {
            unit: 'px',
            min: 0,
          }),
        );
      }
    }
    const stroke = src.stroke ?? { color: still('#000000'), width: still(0) };
    rows.push(
      row('Shape', 'Fill Color', 'shape.fillColor', 'color', src.fill?.color ?? still('#ffffff')),
      row('Shape', 'Stroke Color', 'shape.strokeColor', 'color', stroke.color),
      row('Shape', 'Stroke Width', 'shape.strokeWidth', 'number', stroke.width, {
        unit: 'px',
        min: 0,
        max: 500,
      }),
    );
  }
  if (doc && layerHasSound(doc, layer))
    rows.push(
      row('Audio', 'Level', 'audio.level', 'number', layer.audio?.level ?? still(0), {
        unit: 'dB',
        min: -96,
        max: 24,
        step: 0.1,
        precision: 1,
      }),
    );
  for (const { effect, name } of effectNames(layer)) {
    const type = effectType(effect.type);
    for (const [key, spec] of Object.entries(type?.params ?? {})) {
      const stored = effect.params[key] ?? still(spec.default);
      rows.push(
        row(`Effects/${name}`, titleCase(key), `effects.${effect.id}.${key}`, spec.type, stored, {
          min: spec.min,
          max: spec.max,
          unit: unitOf(spec.description),
        }),
      );
    }
  }
  return rows;
}

/** Each effect with the name its control paths use: its type's title, numbered when a layer has two. */
export function effectNames(layer: Layer): Array<{ effect: Layer['effects'][number]; name: string }> {
  const seen = new Map<string, number>();
  return layer.effects.map((effect) => {
    const title = effectType(effect.type)?.title ?? effect.type;
    const n = (seen.get(title) ?? 0) + 1;
    seen.set(title, n);
    return { effect, name: n === 1 ? title : `${title} ${n}` };
  });
}

/** The unit an effect parameter's description names ("Blur radius in pixels" -> px). */
function unitOf(description: string): string | undefined {
  if (/in pixels/.test(description)) return 'px';
  if (/percent/.test(description)) return '%';
  if (/degrees/.test(description)) return '°';
  return undefined;
}

function row(
  group: string,
  name: string,
  path: string,
  type: RowType,
  source: AnimatableProperty,
  more: Partial<PropertyRow> = {},
): PropertyRow {
  return { group, name, path, type, source, ...more };
}

export const isAnimatable = (r: PropertyRow): r is PropertyRow & { source: AnimatableProperty } =>
  typeof r.source === 'object';

export const isAnimated = (r: PropertyRow) => isAnimatable(r) && r.source.keyframes.length > 0;

/** The row's value at a comp frame (keyframes evaluated by the engine's own interpolation). */
export function rowValue(r: PropertyRow, comp: Composition, layer: Layer, frame: number): PropertyValue {
  if (!isAnimatable(r)) return r.source as string;
  return valueAt(r.source, layerTimeAt(comp, layer, frame));
}

/** The keyframe at a comp frame (within half a frame), if any. */
export function keyframeAtFrame(
  r: PropertyRow,
  comp: Composition,
  layer: Layer,
  frame: number,
): Keyframe | undefined {
  if (!isAnimatable(r)) return undefined;
  const t = layerTimeAt(comp, layer, frame);
  return (r.source.keyframes as readonly Keyframe[]).find((k) => Math.abs(k.time - t) < 0.5 / comp.frameRate);
}
