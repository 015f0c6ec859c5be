/**
 * The process-wide store of MCP tasks (extension io.modelcontextprotocol/tasks, protocol revision 2026-07-28).
 * One store per process, shared by every server instance: over HTTP each request is its own McpServer, so a
 * task created in one request must be readable from the next. A task is the state of one background piece of
 * work (a render): its status, a status message, and once it ends the tool result it would have answered.
 */
import { randomUUID } from 'node:crypto';
import { ProtocolError, type CallToolResult } from '@modelcontextprotocol/server';

/** The extension's identifier, as declared in capabilities. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** How long a task is kept after its last change, and the polling pace suggested to clients. */
export const TASK_TTL_MS = 3_600_000;
export const TASK_POLL_INTERVAL_MS = 1_000;
/** How long tasks/cancel waits for the work to stop and clean up before it answers anyway. */
const CANCEL_WAIT_MS = 30_000;

export type TaskStatus = 'working' | 'completed' | 'failed' | 'cancelled';

/** The wire Task (SEP-2663): what tools/call answers as a CreateTaskResult and tasks/get details. */
export interface TaskWire {
  taskId: string;
  status: TaskStatus;
  statusMessage?: string;
  createdAt: string;
  lastUpdatedAt: string;
  ttlMs: number;
  pollIntervalMs: number;
  result?: CallToolResult;
  error?: { code: number; message: string; data?: unknown };
}

/** What a task's work gets: its stop signal and a way to say where it is. */
export interface TaskControl {
  readonly signal: AbortSignal;
  /** Sets the status message of a working task (ignored once it ended). */
  status(message: string): void;
}

export interface TaskStoreOptions {
  ttlMs?: number;
  pollIntervalMs?: number;
  now?: () => number;
  log?: (message: string) => void;
}

interface TaskRecord {
  readonly id: string;
  readonly label: string;
  readonly createdAt: number;
  status: TaskStatus;
  statusMessage?: string;
  lastUpdatedAt: number;
  result?: CallToolResult;
  error?: TaskWire['error'];
  readonly controller: AbortController;
  /** Resolves when the work has returned (its cleanup done), whatever the outcome. */
  settled: Promise<void>;
  /** Set by tasks/cancel (or shutdown) while the work is stopping; the task stays working until it has. */
  cancelling?: 'client' | 'shutdown';
  /** The first cancel's wait, which a second cancel of the same task shares. */
  stopping?: Promise<boolean>;
  /** Whether a result returned after a cancel shows the work ran to its end (the cancel came too late). */
  readonly ranToEnd: (result: CallToolResult) => boolean;
}

/** The store: start, read and cancel tasks. Ended tasks are dropped `ttlMs` after their last change. */
export class TaskStore {
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  readonly #now: () => number;
  readonly #log: (message: string) => void;
  readonly #tasks = new Map<string, TaskRecord>();

  constructor(options: TaskStoreOptions = {}) {
    this.ttlMs = options.ttlMs ?? TASK_TTL_MS;
    this.pollIntervalMs = options.pollIntervalMs ?? TASK_POLL_INTERVAL_MS;
    this.#now = options.now ?? Date.now;
    this.#log = options.log ?? (() => undefined);
  }

  /**
   * Records a task and starts its work. The task is in the store before this returns, so a tasks/get for the
   * returned id succeeds at once (the spec's durable-create rule). `work` is called synchronously.
   * `ranToEnd` tells, of a result returned after a cancel, whether the work had finished anyway: such a task
   * reads completed with its result (the extension allows it), not cancelled with its output on disk.
   */
  start(
    label: string,
    statusMessage: string,
    work: (control: TaskControl) => Promise<CallToolResult>,
    ranToEnd: (result: CallToolResult) => boolean = () => false,
  ): TaskWire {
    this.#sweep();
    const now = this.#now();
    const record: TaskRecord = {
      // Security: the id is the only handle on a task; a random UUID cannot be guessed or enumerated.
      id: randomUUID(),
      label,
      createdAt: now,
      lastUpdatedAt: now,
      status: 'working',
      statusMessage,
      controller: new AbortController(),
      settled: Promise.resolve(),
      ranToEnd,
    };
    this.#tasks.set(record.id, record);
    const control: TaskControl = {
      signal: record.controller.signal,
      status: (message) => {
        if (record.status !== 'working' || record.cancelling || message === record.statusMessage) return;
        record.statusMessage = message;
        record.lastUpdatedAt = this.#now();
      },
    };
    let running: Promise<CallToolResult>;
    try {
      running = work(control);
    } catch (err) {
      running = Promise.reject(err);
    }
    record.settled = running.then(
      (result) => this.#end(record, 'completed', { result }),
      (err: unknown) => this.#end(record, 'failed', { error: asJsonRpcError(err, record, this.#log) }),
    );
    return this.#wire(record, false);
  }

  /** The task as tasks/get reports it (result or error inlined once ended), or undefined for an unknown id. */
  get(id: string): TaskWire | undefined {
    this.#sweep();
    const record = this.#tasks.get(id);
    return record && this.#wire(record, true);
  }

  /**
   * Stops a working task and waits (bounded) until its work has cleaned up; an ended task is left as it is.
   * False for an unknown id. `by` says who stopped it, in its status message and the log. The task stays
   * working until its work has returned: then it reads cancelled, or completed with its result when the work
   * had already run to its end (a render past its last frame: its files are whole and kept, so "cancelled"
   * would hide an output that is there). Past the wait it reads cancelled.
   */
  async cancel(id: string, by: 'client' | 'shutdown' = 'client'): Promise<boolean> {
    this.#sweep();
    const record = this.#tasks.get(id);
    if (!record) return false;
    if (record.status !== 'working') return true;
    record.stopping ??= this.#stop(record, by);
    return record.stopping;
  }

  async #stop(record: TaskRecord, by: 'client' | 'shutdown'): Promise<boolean> {
    const started = this.#now();
    record.cancelling = by;
    record.statusMessage = 'cancelling: waiting for the work to stop and clean up';
    record.lastUpdatedAt = started;
    record.controller.abort();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const waited = await Promise.race([
      record.settled.then(() => true),
      new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), CANCEL_WAIT_MS))),
    ]);
    clearTimeout(timer);
    if (!waited) this.#markCancelled(record);
    const finished = record.status === 'completed';
    // How long it had run, and how long stopping (its cleanup) took: "stopped after 0.0 s" read as the former.
    const ran = `after ${((started - record.createdAt) / 1000).toFixed(1)} s of work`;
    const what =
      by === 'client' ? 'was cancelled by tasks/cancel' : 'was stopped by the server shutting down';
    const ended = by === 'client' ? 'stopped' : 'ended';
    this.#log(
      !waited
        ? `task ${record.id} (${record.label}) ${what} ${ran} and has not ${ended} ${CANCEL_WAIT_MS / 1000} s later`
        : finished
          ? `task ${record.id} (${record.label}) ${what} ${ran} but had already run to its end: it reads completed`
          : `task ${record.id} (${record.label}) ${what} ${ran} and ${ended} ${((this.#now() - started) / 1000).toFixed(1)} s later`,
    );
    return true;
  }

  /** Stops every working task (the server is shutting down) and waits for their cleanup. */
  async cancelAll(): Promise<void> {
    const working = [...this.#tasks.values()].filter((r) => r.status === 'working');
    await Promise.all(working.map((r) => this.cancel(r.id, 'shutdown')));
  }

  #end(
    record: TaskRecord,
    status: 'completed' | 'failed',
    outcome: Pick<TaskRecord, 'result' | 'error'>,
  ): void {
    // A cancelled task stays cancelled: what its work returned after the stop is not a result.
    if (record.status !== 'working') return;
    // Cancelled while working: its outcome is a result only if the work had run to its end regardless.
    if (record.cancelling && !(status === 'completed' && outcome.result && record.ranToEnd(outcome.result)))
      return this.#markCancelled(record);
    record.status = status;
    record.result = outcome.result;
    record.error = outcome.error;
    record.statusMessage =
      status === 'failed'
        ? `failed: ${outcome.error?.message ?? ''}`
        : outcome.result?.isError
          ? 'finished with an error: see result'
          : 'finished';
    record.lastUpdatedAt = this.#now();
  }

  #markCancelled(record: TaskRecord): void {
    if (record.status !== 'working') return;
    record.status = 'cancelled';
    record.statusMessage =
      record.cancelling === 'shutdown' ? 'stopped: the server shut down' : 'cancelled by tasks/cancel';
    record.lastUpdatedAt = this.#now();
  }

  /** Drops ended tasks whose time to live has passed; working tasks are never dropped. */
  #sweep(): void {
    const now = this.#now();
    for (const [id, record] of this.#tasks)
      if (record.status !== 'working' && now > record.lastUpdatedAt + this.ttlMs) this.#tasks.delete(id);
  }

  #wire(record: TaskRecord, detailed: boolean): TaskWire {
    const wire: TaskWire = {
      taskId: record.id,
      status: record.status,
      ...(record.statusMessage !== undefined && { statusMessage: record.statusMessage }),
      createdAt: new Date(record.createdAt).toISOString(),
      lastUpdatedAt: new Date(record.lastUpdatedAt).toISOString(),
      // Counted from creation, as the spec defines it: a task is kept ttlMs after its last change.
      ttlMs: Math.round(record.lastUpdatedAt - record.createdAt) + this.ttlMs,
      pollIntervalMs: this.pollIntervalMs,
    };
    if (detailed && record.status === 'completed' && record.result) wire.result = record.result;
    if (detailed && record.status === 'failed' && record.error) wire.error = record.error;
    return wire;
  }
}

/** A failed task carries the JSON-RPC error its work threw; anything else is an internal error (-32603). */
function asJsonRpcError(err: unknown, record: TaskRecord, log: (message: string) => void): TaskWire['error'] {
  if (err instanceof ProtocolError)
    return { code: err.code, message: err.message, ...(err.data !== undefined && { data: err.data }) };
  log(
    `task ${record.id} (${record.label}) failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
  );
  return {
    code: -32603,
    message: `${record.label} failed unexpectedly; the server log (stderr) has the details.`,
  };
}
