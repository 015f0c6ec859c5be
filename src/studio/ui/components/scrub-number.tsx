/**
 * A numeric field that is also a slider, as in After Effects: drag it sideways to scrub (Shift x10, Alt /10),
 * click it to type a value (Enter commits, Escape cancels), or use Up/Down (Shift x10). A drag reports `move` for
 * each change and `end` on release, so the owner can make the whole drag one undo step.
 *
 * A typed value is taken as typed or not at all: text left as shown is no edit (Enter on 640.5 shown for 640.456
 * rewrote the value, an undo step of nothing), and a value that is not a number or is out of range is refused
 * with a toast naming the range (a speed of -2 was made 0.01 without a word: slow motion for a reversal).
 */
import type { JSX } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { useStudio } from '../studio.js';
import { windowDrag } from './window-drag.js';

export interface ScrubProps {
  label: string;
  /** The control path the UI tools set it by (data-control). */
  control?: string;
  value: number;
  unit?: string;
  min?: number;
  max?: number;
  /** Value change per pixel dragged. */
  step?: number;
  /** Decimals shown. */
  precision?: number;
  disabled?: boolean;
  onScrub(value: number, phase: 'move' | 'end'): void;
  onCommit(value: number): void;
}

const DRAG_THRESHOLD_PX = 3;
/** A number as typed: sign, digits, a point, an exponent. */
const DECIMAL = /^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?$/i;

export function ScrubNumber(props: ScrubProps): JSX.Element {
  const { value, step = 1, precision = 1 } = props;
  const studio = useStudio();
  const [dragValue, setDragValue] = useState<number | null>(null);
  const [editing, setEditing] = useState(false);
  const inputRef = useRef<HTMLInputElement>(null);
  const clamp = (v: number) => Math.min(props.max ?? Infinity, Math.max(props.min ?? -Infinity, v));
  const round = (v: number) => Number(v.toFixed(precision));
  const shown = dragValue ?? value;

  // Layout effects run as the box appears, so keys typed right after the click already land in it.
  useLayoutEffect(() => {
    if (editing) inputRef.current?.select();
  }, [editing]);

  const onPointerDown = (e: PointerEvent) => {
    if (props.disabled || e.button !== 0) return;
    e.preventDefault();
    const startX = e.clientX;
    let dragging = false;
    let last = value;
    windowDrag({
      move: (ev) => {
        const dx = ev.clientX - startX;
        if (!dragging && Math.abs(dx) < DRAG_THRESHOLD_PX) return;
        dragging = true;
        const factor = ev.shiftKey ? 10 : ev.altKey ? 0.1 : 1;
        last = round(clamp(value + dx * step * factor));
        setDragValue(last);
        props.onScrub(last, 'move');
      },
      up: () => {
        if (dragging) {
          props.onScrub(last, 'end');
          // Keep showing the dragged value until the document refresh brings it back.
          window.setTimeout(() => setDragValue(null), 400);
        } else {
          setEditing(true);
        }
      },
    });
  };

  const onKeyDown = (e: KeyboardEvent) => {
    if (props.disabled) return;
    if (e.key === 'Enter') {
      e.preventDefault();
      setEditing(true);
    } else if (e.key === 'ArrowUp' || e.key === 'ArrowDown') {
      // Up/Down only: Left/Right stay the studio's frame step, as in After Effects.
      e.preventDefault();
      e.stopPropagation();
      const sign = e.key === 'ArrowUp' ? 1 : -1;
      props.onCommit(round(clamp(value + sign * (e.shiftKey ? 10 : 1))));
    }
  };

  if (editing) {
    return (
      <NumberInput
        inputRef={inputRef}
        label={props.label}
        control={props.control}
        value={round(value)}
        onDone={(text) => {
          setEditing(false);
          if (text === null) return;
          // As a person writes it: the field's own unit may follow ("50%", "2 ×"); decimal only ("0x10" is not
          // 16 here, whatever Number() says).
          const bare =
            props.unit && text.endsWith(props.unit) ? text.slice(0, -props.unit.length).trim() : text;
          const typed = DECIMAL.test(bare) ? Number(bare) : NaN;
          const { min = -Infinity, max = Infinity } = props;
          if (Number.isFinite(typed) && typed >= min && typed <= max) {
            props.onCommit(typed);
            return;
          }
          const range = Number.isFinite(min) || Number.isFinite(max) ? ` from ${min} to ${max}` : '';
          studio.toast({
            code: 'bad_argument',
            message: `${props.label} takes a number${range}; "${text}" was not set.`,
            remediation: `Type a number${range}${props.unit ? ` (${props.unit})` : ''}, or press Escape to keep ${round(value)}.`,
          });
        }}
      />
    );
  }
  return (
    <span
      class={`scrub ${props.disabled ? 'is-disabled' : ''}`}
      role="slider"
      data-control={props.control}
      tabIndex={props.disabled ? -1 : 0}
      aria-label={props.label}
      aria-valuenow={round(shown)}
      aria-valuemin={props.min}
      aria-valuemax={props.max}
      aria-valuetext={`${round(shown)}${props.unit ? ` ${props.unit}` : ''}`}
      aria-disabled={props.disabled}
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
    >
      {round(shown)}
      {props.unit && <span class="unit">{props.unit}</span>}
    </span>
  );
}

/** The text box a click on a scrub field opens. Enter or leaving it commits; Escape cancels. */
function NumberInput(props: {
  label: string;
  control?: string;
  value: number;
  inputRef: { current: HTMLInputElement | null };
  /** The text typed, or null: cancelled, or left as shown. */
  onDone(text: string | null): void;
}): JSX.Element {
  const done = useRef(false);
  const finish = (text: string | null) => {
    if (done.current) return;
    done.current = true;
    props.onDone(text === String(props.value) || text === '' ? null : text);
  };
  useLayoutEffect(() => props.inputRef.current?.focus(), [props.inputRef]);
  return (
    <input
      ref={props.inputRef}
      class="scrub-input"
      type="text"
      inputMode="decimal"
      aria-label={props.label}
      data-control={props.control}
      defaultValue={String(props.value)}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === 'Enter') finish(e.currentTarget.value.trim());
        else if (e.key === 'Escape') finish(null);
      }}
      onBlur={(e) => finish(e.currentTarget.value.trim())}
    />
  );
}
