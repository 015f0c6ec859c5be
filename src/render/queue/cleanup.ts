/**
 * The cleanup of one render item: every resource the item acquires (listeners, the removal poll, the worker
 * pool, the encoder, its files) registers how to release it here, and `drain` runs those steps once, in
 * `finally`, last registered first. Steps registered with `onFailure` (killing the encoder, removing the
 * files the item created, or with `resume` only its unfinished ones) run only when the item did not complete:
 * a finished item keeps its output, and nothing from earlier runs or skipped frames is ever registered, so
 * nothing of theirs is removed (an earlier file the item replaced is put back: see FileTracker.commit).
 */
type Step = () => unknown;

export class CleanupStack {
  readonly #steps: Array<{ step: Step; onFailure: boolean }> = [];

  /** Runs `step` however the item ends. */
  always(step: Step): void {
    this.#steps.push({ step, onFailure: false });
  }

  /** Runs `step` only when the item failed, was stopped or was removed. */
  onFailure(step: Step): void {
    this.#steps.push({ step, onFailure: true });
  }

  /**
   * Runs the steps, last registered first; `failed` selects whether onFailure steps run. Every step runs
   * even when one throws (a step that cannot release one thing must not leave the others), then the first
   * error is rethrown: steps catch what they expect, so what reaches here is a bug. Draining twice is a no-op.
   */
  async drain(failed: boolean): Promise<void> {
    let error: { cause: unknown } | null = null;
    for (const { step, onFailure } of this.#steps.splice(0).reverse()) {
      if (onFailure && !failed) continue;
      try {
        await step();
      } catch (cause) {
        error ??= { cause };
      }
    }
    if (error) throw error.cause;
  }
}
