/**
 * One layer setting that is not keyframed (Time: speed, reverse, loop, freeze; Audio: mute, stream), laid out as
 * a property row: a tick box, a scrub field or a menu. A change is one command; a scrub drag is one undo step.
 */
import type { JSX } from 'preact';
import { useRef } from 'preact/hooks';
import { ScrubNumber } from '../components/scrub-number.js';
import type { Gesture } from '../live/commands.js';
import { switchPathOf, type SwitchRow, type SwitchValue } from '../state/layer-switches.js';
import { useStudio } from '../studio.js';

export function SwitchRowView(props: { row: SwitchRow }): JSX.Element {
  const { row } = props;
  const studio = useStudio();
  const gesture = useRef<Gesture | null>(null);
  const control = switchPathOf(row);
  const commit = (v: SwitchValue) => {
    const step = row.change(v);
    studio.editLayer(step.id, step.params);
  };
  const scrub = (v: number, phase: 'move' | 'end') => {
    gesture.current ??= studio.commands.gesture(`Change ${row.name}`);
    gesture.current.step(row.change(v));
    if (phase === 'end') {
      const g = gesture.current;
      gesture.current = null;
      void g.end().catch(() => undefined);
    }
  };

  let editor: JSX.Element;
  if (row.type === 'boolean')
    editor = (
      <input
        type="checkbox"
        class="switch"
        aria-label={row.name}
        data-control={control}
        checked={row.value === true}
        onChange={(e) => {
          commit(e.currentTarget.checked);
          // The focus goes back to the page: Space then plays (not ticks it again), Ctrl+Z undoes.
          e.currentTarget.blur();
        }}
      />
    );
  else if (row.type === 'number')
    editor = (
      <ScrubNumber
        label={row.name}
        control={control}
        value={row.value as number}
        unit={row.unit}
        min={row.min}
        max={row.max}
        step={row.step}
        precision={row.precision}
        onScrub={scrub}
        onCommit={commit}
      />
    );
  else
    editor = (
      <select
        class="field"
        aria-label={row.name}
        data-control={control}
        value={String(row.value)}
        onChange={(e) => {
          commit(e.currentTarget.value);
          e.currentTarget.blur();
        }}
      >
        {row.options?.map((o, i) => (
          <option key={o} value={o}>
            {row.labels?.[i] ?? o}
          </option>
        ))}
      </select>
    );

  return (
    <div class="prop-row" role="row" aria-label={row.name}>
      <span class="kf-toggle is-static" />
      <span class="prop-name">{row.name}</span>
      <span class="prop-editor">{editor}</span>
    </div>
  );
}
