/** A command that keeps the thread busy: a stand-in for a batch step that never awaits anything. */
import { z } from 'zod';
import { defineCommand, EDIT, type AnyCommand } from '../../src/engine/index.js';

/** `test.spin {ms}`: busy-waits `ms` milliseconds without yielding, then counts itself in the project name. */
export const spinCommand: AnyCommand = defineCommand({
  id: 'test.spin',
  title: 'Spin',
  category: 'Test',
  description: 'Test stand-in for a synchronous edit that takes a while.',
  params: z.strictObject({ ms: z.number().min(0).max(100) }),
  pathParams: {},
  annotations: EDIT,
  mutates: true,
  run(ctx, p) {
    const until = performance.now() + p.ms;
    while (performance.now() < until) {
      // Busy: this step holds the thread, as a long run of synchronous commands does.
    }
    ctx.update((d) => void (d.nextId += 1));
    return { spun: p.ms };
  },
}) as AnyCommand;

/** `n` batch steps of `test.spin {ms}`. */
export function spinSteps(n: number, ms: number): { id: string; params: { ms: number } }[] {
  return Array.from({ length: n }, () => ({ id: 'test.spin', params: { ms } }));
}

/**
 * Sends `request` from a timer `afterMs` into a heavy call (as a message from a socket would arrive) and reports
 * how long it took to be answered and whether the heavy call was still running then.
 */
export async function answeredDuring<T>(
  heavy: Promise<T>,
  request: () => Promise<unknown>,
  afterMs = 50,
): Promise<{ waitedMs: number; heavyStillRunning: boolean; heavy: T }> {
  let heavyDone = false;
  const tracked = heavy.finally(() => (heavyDone = true));
  const answer = await new Promise<{ waitedMs: number; heavyStillRunning: boolean }>((resolve, reject) => {
    setTimeout(() => {
      const sent = performance.now();
      request().then(
        () => resolve({ waitedMs: performance.now() - sent, heavyStillRunning: !heavyDone }),
        reject,
      );
    }, afterMs);
  });
  return { ...answer, heavy: await tracked };
}
