/**
 * The time ruler: ticks with timecode labels, the work area (drag its ends or its middle) and the playhead,
 * which a press or drag anywhere on the ruler moves.
 */
import type { JSX } from 'preact';
import type { Composition } from '../../../engine/model.js';
import { windowDrag } from '../components/window-drag.js';
import { frameCount, timecode } from '../state/doc.js';
import type { WorkArea } from '../state/studio-state.js';
import { useStudio } from '../studio.js';
import { frameAtX, frameX, tickLabel, tickStep, type TimeScale } from './timeline-geometry.js';

export function TimelineRuler(props: {
  comp: Composition;
  scale: TimeScale;
  workArea: WorkArea | null;
}): JSX.Element {
  const { comp, scale } = props;
  const studio = useStudio();
  const last = frameCount(comp) - 1;
  const area = props.workArea ?? { start: 0, end: last };
  const step = tickStep(scale);
  const ticks: number[] = [];
  for (let f = 0; f <= last; f += step) ticks.push(f);

  const xIn = (e: PointerEvent, el: Element) => e.clientX - el.getBoundingClientRect().left;

  const scrub = (e: PointerEvent) => {
    if (e.button !== 0) return;
    const ruler = e.currentTarget as HTMLElement;
    studio.player.pause();
    studio.seek(frameAtX(scale, xIn(e, ruler)));
    windowDrag({ move: (ev) => studio.seek(frameAtX(scale, xIn(ev, ruler))), up: () => undefined });
  };

  /** Drags the work area's start, end, or both (its middle). */
  const dragArea = (e: PointerEvent, part: 'start' | 'end' | 'both') => {
    if (e.button !== 0) return;
    e.stopPropagation();
    const ruler = (e.currentTarget as HTMLElement).closest('.ruler')!;
    const from = frameAtX(scale, xIn(e, ruler));
    const initial = { ...area };
    windowDrag({
      move: (ev) => {
        const d = frameAtX(scale, xIn(ev, ruler)) - from;
        let { start, end } = initial;
        if (part === 'start') start = Math.min(end, Math.max(0, start + d));
        else if (part === 'end') end = Math.max(start, Math.min(last, end + d));
        else {
          const shift = Math.max(-start, Math.min(last - end, d));
          start += shift;
          end += shift;
        }
        const whole = start === 0 && end === last;
        studio.store.update({ workArea: whole ? null : { start, end } });
      },
      up: () => undefined,
    });
  };

  return (
    <div
      class="ruler"
      style={{ width: `${scale.width}px` }}
      role="slider"
      aria-label="Time ruler: press or drag to move the playhead"
      aria-valuemin={0}
      aria-valuemax={last}
      onPointerDown={scrub}
    >
      <div
        class="work-area"
        style={{
          left: `${frameX(scale, area.start)}px`,
          width: `${frameX(scale, area.end - area.start + 1)}px`,
        }}
        aria-label={`Work area ${timecode(comp, area.start)} to ${timecode(comp, area.end)}`}
        onPointerDown={(e) => dragArea(e, 'both')}
      >
        <span
          class="wa-handle start"
          aria-label="Work area start"
          onPointerDown={(e) => dragArea(e, 'start')}
        />
        <span class="wa-handle end" aria-label="Work area end" onPointerDown={(e) => dragArea(e, 'end')} />
      </div>
      {ticks.map((f) => (
        <span class="tick" key={f} style={{ left: `${frameX(scale, f)}px` }}>
          {tickLabel(f, Math.round(comp.frameRate))}
        </span>
      ))}
    </div>
  );
}
