/**
 * The one command a person's change of one property makes: property.set for a static property, or
 * property.setKeyframe at the playhead for an animated one (keeping that keyframe's easing when it exists).
 * Only the changed property is sent, never a copy of the layer, and for X or Y of an [x, y] value only that
 * component (`dimension`), so concurrent editors never overwrite each other.
 */
import type { Composition, Layer, PropertyValue } from '../../../engine/model.js';
import { layerTimeAt } from '../state/doc.js';
import { isAnimated, keyframeAtFrame, type PropertyRow } from '../state/layer-properties.js';
import type { Step } from './commands.js';

/** One component of an [x, y] value: the app keeps the other as the document has it when the edit runs. */
export type Dimension = 'x' | 'y';

export function propertyStep(
  comp: Composition,
  layer: Layer,
  row: PropertyRow,
  frame: number,
  value: PropertyValue,
  dimension?: Dimension,
): Step {
  const target = { comp: comp.id, layer: layer.id, property: row.path, ...(dimension && { dimension }) };
  if (!isAnimated(row)) return { id: 'property.set', params: { ...target, value } };
  const existing = keyframeAtFrame(row, comp, layer, frame);
  if (existing) {
    return {
      id: 'property.setKeyframe',
      params: {
        ...target,
        time: existing.time,
        value,
        interpolation: existing.interpolation,
        ...(existing.easeIn && { easeIn: existing.easeIn }),
        ...(existing.easeOut && { easeOut: existing.easeOut }),
      },
    };
  }
  return { id: 'property.setKeyframe', params: { ...target, time: layerTimeAt(comp, layer, frame), value } };
}

/** The keyframe toggle: remove the keyframe at the playhead, or add one there with the current value. */
export function keyframeToggleStep(
  comp: Composition,
  layer: Layer,
  row: PropertyRow,
  frame: number,
  current: PropertyValue,
): Step {
  const target = { comp: comp.id, layer: layer.id, property: row.path };
  const existing = keyframeAtFrame(row, comp, layer, frame);
  if (existing) return { id: 'property.removeKeyframe', params: { ...target, time: existing.time } };
  return {
    id: 'property.setKeyframe',
    params: { ...target, time: layerTimeAt(comp, layer, frame), value: current },
  };
}
