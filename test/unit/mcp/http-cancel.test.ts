/** InFlightRequests: which request a `notifications/cancelled` over HTTP aborts (http-cancel.ts). */
import { describe, expect, it } from 'vitest';
import { InFlightRequests, cancelledIdOf, requestIdOf } from '../../../src/mcp/http-cancel.js';

describe('notifications/cancelled over HTTP', () => {
  it('aborts the one request in flight with that id, and none once it has been answered', () => {
    const inFlight = new InFlightRequests();
    const render = new AbortController();
    const other = new AbortController();
    const done = inFlight.track(7, render);
    inFlight.track('7', other);
    expect(inFlight.cancel(7)).toBe('cancelled');
    expect(render.signal.aborted).toBe(true);
    expect(other.signal.aborted).toBe(false);
    done();
    expect(inFlight.cancel(7)).toBe('unknown');
  });

  it('cancels nothing when two clients have the same id in flight', () => {
    const inFlight = new InFlightRequests();
    const [a, b] = [new AbortController(), new AbortController()];
    inFlight.track(3, a);
    const bDone = inFlight.track(3, b);
    expect(inFlight.cancel(3)).toBe('ambiguous');
    expect([a.signal.aborted, b.signal.aborted]).toEqual([false, false]);
    bDone();
    expect(inFlight.cancel(3)).toBe('cancelled');
    expect(a.signal.aborted).toBe(true);
  });

  it('reads the ids of requests and of cancellations, and nothing from other bodies', () => {
    expect(requestIdOf({ jsonrpc: '2.0', id: 4, method: 'tools/call' })).toBe(4);
    expect(requestIdOf({ jsonrpc: '2.0', method: 'notifications/initialized' })).toBe(null);
    expect(requestIdOf({ jsonrpc: '2.0', id: 4, result: {} })).toBe(null);
    expect(requestIdOf([{ jsonrpc: '2.0', id: 4, method: 'ping' }])).toBe(null);
    const cancel = (requestId: unknown) => ({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId, reason: 'timeout' },
    });
    expect(cancelledIdOf(cancel('r-1'))).toBe('r-1');
    expect(cancelledIdOf(cancel({ id: 1 }))).toBe(null);
    expect(cancelledIdOf({ jsonrpc: '2.0', id: 1, method: 'ping' })).toBe(null);
  });
});
