/**
 * Tool calls on one connection run in the order they arrived, so an agent that pipelines requests
 * (comp.new, then layer.addSolid, then render_preview) sees each call act on the document its earlier calls left.
 * A call may detach early (a blocking render, once its snapshot is taken) so later calls are served while it runs;
 * pings, resource reads and cancellations never wait here.
 */
export class CallOrder {
  #tail: Promise<void> = Promise.resolve();

  /** Waits for every earlier call to finish or detach; returns the release for this call (safe to call twice). */
  async enter(): Promise<() => void> {
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    const previous = this.#tail;
    this.#tail = previous.then(() => done);
    await previous;
    return release;
  }
}
