/**
 * `notifications/cancelled` over HTTP. A 2026-07-28 client cancels a request by closing its response stream,
 * which aborts it (servePost). A 2025-11-25 client instead POSTs the notification, naming the request's id; the
 * SDK's stateless handler answers it 202 from a fresh server that knows nothing of the request, so a cancelled or
 * timed-out render went on to the end and held the render slot. Here the ids of the POSTs still being answered
 * are kept, and the notification aborts the request it names, as closing its stream would.
 *
 * The server keeps no sessions, so ids are the clients' own and two clients may use the same one at once: a
 * notification naming an id that more than one request in flight carries cancels none of them (the spec lets a
 * server ignore what it cannot match), rather than maybe the wrong one.
 */
type Id = string | number;

export type CancelOutcome = 'cancelled' | 'unknown' | 'ambiguous';

export class InFlightRequests {
  readonly #byId = new Map<Id, Set<AbortController>>();

  /** Keeps `abort` under the request's `id` until the returned function is called (its answer is written). */
  track(id: Id, abort: AbortController): () => void {
    const set = this.#byId.get(id) ?? new Set();
    set.add(abort);
    this.#byId.set(id, set);
    return () => {
      set.delete(abort);
      if (!set.size && this.#byId.get(id) === set) this.#byId.delete(id);
    };
  }

  /** Aborts the one request in flight with `id`. */
  cancel(id: Id): CancelOutcome {
    const set = this.#byId.get(id);
    if (!set?.size) return 'unknown';
    if (set.size > 1) return 'ambiguous';
    const [abort] = set;
    abort!.abort();
    return 'cancelled';
  }
}

const isId = (v: unknown): v is Id => typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v));

/** The id of a JSON-RPC request body (a method and an id), or null. */
export function requestIdOf(body: unknown): Id | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const m = body as { method?: unknown; id?: unknown };
  return typeof m.method === 'string' && isId(m.id) ? m.id : null;
}

/** The request a `notifications/cancelled` body names, or null for any other body. */
export function cancelledIdOf(body: unknown): Id | null {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return null;
  const m = body as { method?: unknown; params?: { requestId?: unknown } };
  if (m.method !== 'notifications/cancelled') return null;
  return isId(m.params?.requestId) ? m.params.requestId : null;
}
