/** Shared by the final-open tests: both ways the kernel is reached, and a promise's outcome as an error code. */
import { EngineError } from '../../../src/engine/index.js';
import { DEFAULT_IO, type SafeIoOptions } from '../../../src/confinement/safe-io.js';

/** Every final-open test runs through /proc/self/fd (Linux) and by path (elsewhere). */
export const IO_MODES = [
  ['through /proc/self/fd', DEFAULT_IO],
  ['by path (no /proc)', { procFd: null }],
] as const satisfies ReadonlyArray<readonly [string, SafeIoOptions]>;

/** 'ok', the EngineError code, or 'unexpected: …' for anything else. */
export async function codeOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
    return 'ok';
  } catch (err) {
    return err instanceof EngineError ? err.code : `unexpected: ${String(err)}`;
  }
}
