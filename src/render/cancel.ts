/** The one error a cancelled frame (frame.preview, frame.save) ends with. */
import { EngineError } from '../engine/core.js';

export function frameCancelled(): EngineError {
  return new EngineError('cancelled', 'The frame was cancelled.', 'Ask for it again if you still need it.');
}

/** Throws `frameCancelled()` when `signal` has fired. */
export function throwIfCancelled(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw frameCancelled();
}
