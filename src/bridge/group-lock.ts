/**
 * A first-come mutex for host-side groups: the engine folds every edit made while a group is open into
 * that group's undo step, so two clients' groups must not overlap.
 */
export class GroupLock {
  #tail: Promise<void> = Promise.resolve();

  /** Resolves with a release function once every earlier holder has released. */
  acquire(): Promise<() => void> {
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const ready = this.#tail.then(() => release);
    this.#tail = this.#tail.then(() => held);
    return ready;
  }
}
