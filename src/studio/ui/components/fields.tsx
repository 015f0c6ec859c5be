/** Text and colour fields that commit once (Enter, or a colour picked), never on every keystroke. */
import type { JSX } from 'preact';
import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';

/** A text box showing `value`; Enter commits what was typed, Escape puts the value back. */
export function TextField(props: {
  label: string;
  value: string;
  control?: string;
  placeholder?: string;
  class?: string;
  autoFocus?: boolean;
  onCommit(value: string): void;
  /** Escape, or Enter with nothing changed. */
  onCancel?(): void;
  onBlur?(): void;
}): JSX.Element {
  const [text, setText] = useState(props.value);
  // A newer value from the document replaces the text unless the person is typing in it.
  const [focused, setFocused] = useState(false);
  const ref = useRef<HTMLInputElement>(null);
  useEffect(() => {
    if (!focused) setText(props.value);
  }, [props.value, focused]);
  // The autofocus attribute only acts at page load; a field that appears later takes the focus here.
  useLayoutEffect(() => {
    if (props.autoFocus) ref.current?.select();
  }, [props.autoFocus]);
  return (
    <input
      ref={ref}
      class={`field ${props.class ?? ''}`}
      type="text"
      aria-label={props.label}
      data-control={props.control}
      placeholder={props.placeholder}
      value={text}
      onFocus={() => setFocused(true)}
      onBlur={() => {
        setFocused(false);
        props.onBlur?.();
      }}
      onInput={(e) => setText(e.currentTarget.value)}
      onKeyDown={(e) => {
        e.stopPropagation();
        if (e.key === 'Enter') {
          e.preventDefault();
          if (text !== props.value) props.onCommit(text);
          else props.onCancel?.();
        } else if (e.key === 'Escape') {
          setText(props.value);
          props.onCancel?.();
        }
      }}
    />
  );
}

/** A swatch (the browser's colour picker) and the hex code; a picked or typed colour commits once. */
export function ColorField(props: {
  label: string;
  value: string;
  control?: string;
  onCommit(value: string): void;
}): JSX.Element {
  const rgb = props.value.slice(0, 7);
  const alpha = props.value.slice(7);
  return (
    <span class="color-field">
      <input
        type="color"
        class="swatch"
        aria-label={`${props.label} swatch`}
        data-control={props.control}
        value={rgb}
        // `change` fires once the picker closes; `input` would send a command per mouse move.
        onChange={(e) => props.onCommit(e.currentTarget.value + alpha)}
      />
      <TextField
        class="hex"
        label={props.label}
        control={props.control}
        value={props.value}
        onCommit={(v) => props.onCommit(v.trim())}
      />
    </span>
  );
}
