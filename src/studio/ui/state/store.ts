/**
 * A small observable store: one immutable state object, replaced by `update`, watched by `subscribe`.
 * Components read slices of it with `useStore`, which re-renders only when the selected slice changes, so a
 * playhead moving 30 times a second does not redraw the Project panel.
 */
import { useEffect, useRef, useState } from 'preact/hooks';

export class Store<S extends object> {
  #state: S;
  readonly #listeners = new Set<(state: S) => void>();

  constructor(initial: S) {
    this.#state = initial;
  }

  get state(): S {
    return this.#state;
  }

  /** Replaces the fields in `patch` (or what `fn` returns) and notifies subscribers once. */
  update(patch: Partial<S> | ((state: S) => Partial<S>)): void {
    const change = typeof patch === 'function' ? patch(this.#state) : patch;
    this.#state = { ...this.#state, ...change };
    for (const listener of [...this.#listeners]) listener(this.#state);
  }

  subscribe(listener: (state: S) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

/** The slice `select` picks from the store, re-rendering when it changes (compared with Object.is). */
export function useStore<S extends object, T>(store: Store<S>, select: (state: S) => T): T {
  // The latest selector, so one that closes over props (a layer id) stays current without re-subscribing.
  const selectRef = useRef(select);
  selectRef.current = select;
  const [, force] = useState(0);
  const value = select(store.state);
  const valueRef = useRef(value);
  valueRef.current = value;
  useEffect(
    () =>
      store.subscribe((state) => {
        if (!Object.is(selectRef.current(state), valueRef.current)) force((n) => n + 1);
      }),
    [store],
  );
  return value;
}
