/**
 * How many tools/call may run at once on this server process, across every HTTP request (each request gets its
 * own McpServer, so the count lives here, one per process). A call beyond the limit is answered `busy` at once
 * rather than queued: a remote caller must not be able to pile up work or memory on the render node.
 */
import type { ErrorInfo } from '../../engine/index.js';

export const DEFAULT_MAX_CONCURRENT_CALLS = 4;

export class CallLimit {
  readonly max: number;
  #running = 0;

  constructor(max = DEFAULT_MAX_CONCURRENT_CALLS) {
    this.max = max;
  }

  get running(): number {
    return this.#running;
  }

  /** A release function when a slot is free (call it once the call ends), else null. */
  tryEnter(): (() => void) | null {
    if (this.#running >= this.max) return null;
    this.#running++;
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#running--;
    };
  }

  busy(tool: string): ErrorInfo {
    return {
      code: 'busy',
      message: `${tool} was not run: ${this.max} tool calls are already running on this server (its limit).`,
      remediation:
        'Wait for your running calls to finish and call again; for long renders pass wait: false and poll renderQueue.list, which holds no slot while the render runs.',
    };
  }
}
