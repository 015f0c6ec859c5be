/**
 * One property in the Properties panel: keyframe toggle, name, and its editor (scrub fields with units, a
 * colour, or text). Each person's change is one command; a scrub drag is one undo step (a Gesture).
 */
import type { JSX } from 'preact';
import { useRef } from 'preact/hooks';
import type { Composition, Layer, PropertyValue, Vec2 } from '../../../engine/model.js';
import { Icon } from '../components/icons.js';
import { ColorField, TextField } from '../components/fields.js';
import { ScrubNumber } from '../components/scrub-number.js';
import type { Gesture } from '../live/commands.js';
import { keyframeToggleStep, propertyStep, type Dimension } from '../live/property-edit.js';
import {
  controlPathOf,
  isAnimatable,
  isAnimated,
  keyframeAtFrame,
  rowValue,
  type PropertyRow,
} from '../state/layer-properties.js';
import { useStudio } from '../studio.js';

export function PropertyRowView(props: {
  row: PropertyRow;
  comp: Composition;
  layer: Layer;
  frame: number;
}): JSX.Element {
  const { row, comp, layer, frame } = props;
  const studio = useStudio();
  const gesture = useRef<Gesture | null>(null);
  const value = rowValue(row, comp, layer, frame);
  const keyed = keyframeAtFrame(row, comp, layer, frame) !== undefined;

  const commit = (v: PropertyValue, dimension?: Dimension) =>
    studio.editLayer(...stepArgs(propertyStep(comp, layer, row, frame, v, dimension)));
  const scrub = (v: PropertyValue, phase: 'move' | 'end', dimension?: Dimension) => {
    gesture.current ??= studio.commands.gesture(`Change ${row.name}`);
    gesture.current.step(propertyStep(comp, layer, row, frame, v, dimension));
    if (phase === 'end') {
      const g = gesture.current;
      gesture.current = null;
      void g.end().catch(() => undefined);
    }
  };

  return (
    <div class="prop-row" role="row" aria-label={row.name}>
      {isAnimatable(row) ? (
        <button
          class={`kf-toggle ${keyed ? 'is-on' : ''} ${isAnimated(row) ? 'is-animated' : ''}`}
          aria-label={`${keyed ? 'Remove' : 'Add'} ${row.name} keyframe at the playhead`}
          aria-pressed={keyed}
          onClick={() =>
            void studio.commands
              .run(...stepArgs(keyframeToggleStep(comp, layer, row, frame, value)))
              .catch(() => undefined)
          }
        >
          <Icon name={keyed ? 'diamond' : 'diamondOutline'} size={12} />
        </button>
      ) : (
        <span class="kf-toggle is-static" />
      )}
      <span class="prop-name">{row.name}</span>
      <span class="prop-editor">{editor(row, value, commit, scrub)}</span>
    </div>
  );
}

const stepArgs = (s: { id: string; params: Record<string, unknown> }) => [s.id, s.params] as const;

function editor(
  row: PropertyRow,
  value: PropertyValue,
  commit: (v: PropertyValue, dimension?: Dimension) => void,
  scrub: (v: PropertyValue, phase: 'move' | 'end', dimension?: Dimension) => void,
): JSX.Element {
  const control = controlPathOf(row);
  const numeric = {
    control,
    unit: row.unit,
    min: row.min,
    max: row.max,
    step: row.step ?? (row.max !== undefined && row.max - (row.min ?? 0) <= 10 ? 0.01 : 1),
    precision: row.precision ?? (row.max !== undefined && row.max - (row.min ?? 0) <= 10 ? 2 : 1),
  };
  switch (row.type) {
    case 'number':
      return (
        <ScrubNumber
          label={row.name}
          value={value as number}
          {...numeric}
          onScrub={(v, phase) => scrub(v, phase)}
          onCommit={(v) => commit(v)}
        />
      );
    case 'vec2': {
      const [x, y] = value as Vec2;
      return (
        <>
          <ScrubNumber
            label={`${row.name} X`}
            value={x}
            {...numeric}
            onScrub={(v, phase) => scrub(v, phase, 'x')}
            onCommit={(v) => commit(v, 'x')}
          />
          <ScrubNumber
            label={`${row.name} Y`}
            value={y}
            {...numeric}
            onScrub={(v, phase) => scrub(v, phase, 'y')}
            onCommit={(v) => commit(v, 'y')}
          />
        </>
      );
    }
    case 'color':
      return <ColorField label={row.name} control={control} value={value as string} onCommit={commit} />;
    case 'string':
      return (
        <TextField
          class="wide"
          label={row.name}
          control={control}
          value={value as string}
          onCommit={commit}
        />
      );
  }
}
