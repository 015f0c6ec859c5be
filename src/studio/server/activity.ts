/**
 * The Activity panel's log: every command applied to the session from outside (by an agent, a page, a
 * pipeline, the app), with its outcome, from the engine's commandApplied events. A bounded ring, newest last.
 */
import type { Engine, ExecuteResult } from '../../engine/index.js';
import type { ActivityEntry } from '../protocol.js';

const DEFAULT_CAPACITY = 500;

export class ActivityLog {
  readonly #entries: ActivityEntry[] = [];
  readonly #capacity: number;
  readonly #listeners = new Set<(entry: ActivityEntry) => void>();
  /** seq -> the group its entry's steps belong to. */
  readonly #groups = new Map<number, string>();
  #seq = 0;

  constructor(capacity = DEFAULT_CAPACITY) {
    this.#capacity = capacity;
  }

  /** Records the engine's applied commands until the returned function is called. */
  follow(engine: Engine): () => void {
    return engine.on((event) => {
      if (event.type !== 'commandApplied' || !event.actor) return;
      this.record({
        actor: event.actor,
        command: event.id,
        title: event.title,
        group: event.group,
        ...(event.groupLabel !== undefined && { groupLabel: event.groupLabel }),
        result: event.result,
      });
    });
  }

  record(
    input: Pick<ActivityEntry, 'actor' | 'command' | 'title'> & {
      group?: string;
      groupLabel?: string;
      result: ExecuteResult;
    },
  ): ActivityEntry {
    const { result, group, groupLabel, ...rest } = input;
    const last = this.#entries.at(-1);
    const sameGroup =
      group !== undefined &&
      last !== undefined &&
      this.#groups.get(last.seq) === group &&
      last.ok &&
      result.ok;
    // The steps of one group that repeat the same command (a drag) are one entry that counts them; so are a
    // page's gesture made of several commands (a keyframe moved: remove, then set), under the gesture's name.
    // An agent's batch keeps an entry a step: each of its commands is news.
    const gesture = sameGroup && last.command !== rest.command && rest.actor.kind === 'page';
    const repeats = sameGroup && (last.command === rest.command || gesture);
    const entry: ActivityEntry = {
      seq: repeats ? last.seq : ++this.#seq,
      at: new Date().toISOString(),
      ...rest,
      // Once named for its gesture, the entry keeps that name through the gesture's later steps.
      ...(repeats &&
        groupLabel !== undefined &&
        (gesture || last.title === groupLabel) && { title: groupLabel }),
      ok: result.ok,
      count: repeats ? last.count + 1 : 1,
      ...(result.ok ? summaryOf(result.result) : { error: result.error }),
    };
    if (repeats) this.#entries[this.#entries.length - 1] = entry;
    else {
      this.#entries.push(entry);
      if (group !== undefined) this.#groups.set(entry.seq, group);
      if (this.#entries.length > this.#capacity) this.#groups.delete(this.#entries.shift()!.seq);
    }
    for (const l of this.#listeners) l(entry);
    return entry;
  }

  /** Newest first. */
  recent(limit = 200): ActivityEntry[] {
    return this.#entries.slice(-limit).reverse();
  }

  on(listener: (entry: ActivityEntry) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }
}

/** One short line about a command's result: what it made or touched, never the whole payload. */
export function summaryOf(result: unknown): { summary?: string } {
  if (typeof result !== 'object' || result === null || Array.isArray(result)) return {};
  const r = result as Record<string, unknown>;
  const parts: string[] = [];
  for (const key of ['id', 'name', 'path', 'status', 'label', 'undone', 'redone']) {
    const v = r[key];
    if (typeof v === 'string' || typeof v === 'number') parts.push(key === 'name' ? `"${v}"` : String(v));
  }
  const summary = parts.join(' ').slice(0, 160);
  return summary ? { summary } : {};
}
