/**
 * A render's stop signals (Ctrl-C, SIGTERM, SIGHUP) from the process's first moment. Its own handlers come once
 * its module has loaded and its session exists (a few hundred ms); a signal before then took Node's default:
 * the process died with nothing on stdout, where a --json pipeline expects its result. Until the render takes
 * them over, the signals are only noted, and the render then stops as if they came right after it started.
 */
export const CANCEL_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
export type CancelSignal = (typeof CANCEL_SIGNALS)[number];

let first: CancelSignal | null = null;
const note = (signal: CancelSignal) => void (first ??= signal);

/** Called by the entry point for `render`, before anything is loaded. */
export function catchEarlySignals(): void {
  for (const signal of CANCEL_SIGNALS) process.on(signal, note);
}

/** Ends the noting; the first signal that came meanwhile, or null. */
export function takeEarlySignal(): CancelSignal | null {
  for (const signal of CANCEL_SIGNALS) process.off(signal, note);
  return first;
}
