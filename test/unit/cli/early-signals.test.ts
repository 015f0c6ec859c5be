/**
 * `render`'s stop signals are noted from the entry point on, so one that comes while the render's modules load
 * (a pipeline's timeout firing early) is handed to the render, which stops with its result and exit code, instead
 * of Node's default ending the process with nothing on stdout. Real signals, sent to this process.
 */
import { afterEach, expect, it } from 'vitest';
import { catchEarlySignals, takeEarlySignal } from '../../../src/cli/early-signals.js';

afterEach(() => void takeEarlySignal());

it('notes the first stop signal until the render takes them over, and then lets go', async () => {
  const before = process.listenerCount('SIGHUP');
  catchEarlySignals();
  process.kill(process.pid, 'SIGHUP');
  process.kill(process.pid, 'SIGINT');
  await new Promise((resolve) => setTimeout(resolve, 50));
  expect(takeEarlySignal()).toBe('SIGHUP');
  expect(process.listenerCount('SIGHUP')).toBe(before);
});
