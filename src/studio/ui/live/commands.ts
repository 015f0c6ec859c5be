/**
 * Every edit the page makes goes through here: `engine.execute {id, params}` on the live channel, the same
 * command catalog every other surface uses. A failed command shows a toast with its message and remedy; a
 * command that worked with warnings (a speed that leaves the layer outlasting its clip, a relink to a file with
 * no sound) shows them as a warning toast, as an agent gets them in its result.
 *
 * A Gesture (a slider drag, a keyframe moved on the timeline) is one undo step: the first step opens a group
 * (engine.beginGroup), each step is sent with its groupId, and the release ends it (engine.endGroup commit).
 * While a step is in flight only the latest value waits, so a fast drag never queues up a backlog.
 */
import type { ErrorBody } from '../../protocol.js';
import type { LiveChannel } from './channel.js';
import type { Call } from './person-words.js';
import { RpcError, toErrorBody } from './rpc-error.js';

export interface Step {
  id: string;
  params: Record<string, unknown>;
}

/** Shows a failure; `call` is the command that failed (absent: the channel or a group failed). */
type OnError = (error: ErrorBody, call?: Call) => void;
type OnWarnings = (warnings: readonly string[], call: Call, result: unknown) => void;

export class Commands {
  readonly #channel: LiveChannel;
  readonly #onError: OnError;
  readonly #onWarnings: OnWarnings;

  constructor(channel: LiveChannel, onError: OnError, onWarnings: OnWarnings = () => undefined) {
    this.#channel = channel;
    this.#onError = onError;
    this.#onWarnings = onWarnings;
  }

  /** Runs one command; its result, or a rejection (already shown as a toast) with the RpcError. */
  async run(id: string, params: Record<string, unknown> = {}, groupId?: string): Promise<unknown> {
    try {
      const reply = await this.#channel.request<{ result: unknown; warnings?: string[] }>(
        'engine.execute',
        groupId ? { id, params, groupId } : { id, params },
      );
      if (reply.warnings?.length) this.#onWarnings(reply.warnings, { id, params }, reply.result);
      return reply.result;
    } catch (error) {
      this.#onError(toErrorBody(error), { id, params });
      throw error;
    }
  }

  /** Runs several steps as one undo step (one group), in order; stops and rolls back at the first failure. */
  async group(label: string, steps: readonly Step[]): Promise<void> {
    const gesture = this.gesture(label);
    for (const step of steps) gesture.step(step, true);
    await gesture.end();
  }

  gesture(label: string): Gesture {
    return new Gesture(
      label,
      this.#channel,
      (id, params, groupId) => this.run(id, params, groupId),
      this.#onError,
    );
  }
}

type Send = (id: string, params: Record<string, unknown>, groupId: string) => Promise<unknown>;

export class Gesture {
  readonly #label: string;
  readonly #channel: LiveChannel;
  readonly #send: Send;
  readonly #onError: OnError;
  #groupId: Promise<string> | null = null;
  /** Steps waiting to be sent: only the latest for a drag, every one for a sequence. */
  #queue: Step[] = [];
  #pump: Promise<void> | null = null;
  #failed = false;

  constructor(label: string, channel: LiveChannel, send: Send, onError: OnError) {
    this.#label = label;
    this.#channel = channel;
    this.#send = send;
    this.#onError = onError;
  }

  /** Queues a step; with `keepAll` false (a drag) it replaces any step not sent yet. */
  step(step: Step, keepAll = false): void {
    if (this.#failed) return;
    if (keepAll) this.#queue.push(step);
    else this.#queue = [step];
    this.#pump ??= this.#drain().finally(() => (this.#pump = null));
  }

  /** Sends what is left, then ends the group: committed unless a step failed (then rolled back). */
  async end(): Promise<void> {
    while (this.#pump) await this.#pump.catch(() => undefined);
    if (!this.#groupId) return;
    const groupId = await this.#groupId.catch(() => null);
    if (!groupId) return;
    await this.#channel.request('engine.endGroup', { groupId, commit: !this.#failed });
    if (this.#failed) throw new Error(`${this.#label} was rolled back`);
  }

  async #drain(): Promise<void> {
    this.#groupId ??= this.#channel
      .request<{ groupId: string }>('engine.beginGroup', { label: this.#label })
      .then((r) => r.groupId);
    let groupId: string;
    try {
      groupId = await this.#groupId;
    } catch (error) {
      this.#fail(error, true);
      return;
    }
    while (this.#queue.length && !this.#failed) {
      const step = this.#queue.shift()!;
      try {
        await this.#send(step.id, step.params, groupId);
      } catch (error) {
        // The toast was shown by the sender.
        this.#fail(error, false);
      }
    }
  }

  #fail(error: unknown, report: boolean): void {
    this.#failed = true;
    this.#queue = [];
    if (report) this.#onError(error instanceof RpcError ? error.toBody() : toErrorBody(error));
  }
}
