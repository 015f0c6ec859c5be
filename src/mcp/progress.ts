/**
 * MCP progress for one request: at most `maxPerSecond` notifications, `progress` strictly increasing,
 * nothing after the request was cancelled or finished (the spec says progress stops at completion, and
 * after a cancel a client must see no more traffic for that request).
 */
import type { ProgressInfo } from '../engine/index.js';

export interface ProgressNotificationParams {
  progressToken: string | number;
  progress: number;
  total?: number;
  message?: string;
}

export interface ProgressReporter {
  /** Hand to the engine as ExecuteOptions.onProgress. */
  report(info: ProgressInfo): void;
  /**
   * Stops reporting for good: the request finished (a pending update, its last state, is sent first, before the
   * reply) or was cancelled (a pending update is dropped: a cancelled request gets no more traffic).
   */
  stop(): void;
}

export interface ProgressOptions {
  token: string | number;
  send: (params: ProgressNotificationParams) => void;
  signal: AbortSignal;
  maxPerSecond?: number;
  now?: () => number;
}

/**
 * Rate-limits engine progress into notifications. Updates that arrive too soon are coalesced: the newest
 * is sent when the interval has passed (a trailing timer), so the last state before a pause is not lost.
 */
export function createProgressReporter(options: ProgressOptions): ProgressReporter {
  const interval = 1000 / (options.maxPerSecond ?? 10);
  const now = options.now ?? (() => performance.now());
  let lastSentAt = -Infinity;
  let lastProgress = -Infinity;
  let pending: ProgressInfo | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let stopped = false;

  const stop = () => {
    stopped = true;
    pending = null;
    if (timer) clearTimeout(timer);
    timer = undefined;
  };
  options.signal.addEventListener('abort', stop, { once: true });

  const emit = (info: ProgressInfo) => {
    if (stopped || options.signal.aborted || !(info.progress > lastProgress)) return;
    lastProgress = info.progress;
    lastSentAt = now();
    const params: ProgressNotificationParams = { progressToken: options.token, progress: info.progress };
    if (info.total !== undefined) params.total = info.total;
    if (info.message !== undefined) params.message = info.message;
    options.send(params);
  };

  return {
    report(info) {
      if (stopped || options.signal.aborted) return;
      if (!(info.progress > lastProgress)) return;
      const wait = lastSentAt + interval - now();
      if (wait <= 0 && !timer) {
        emit(info);
        return;
      }
      pending = info;
      timer ??= setTimeout(
        () => {
          timer = undefined;
          const next = pending;
          pending = null;
          if (next) emit(next);
        },
        Math.max(wait, 0),
      );
    },
    stop() {
      options.signal.removeEventListener('abort', stop);
      // The last update of a render (frame 10/10) usually comes within the interval of the one before: dropped
      // with the timer, the client's last progress read 0.5 of 1 for a render that had written every frame.
      const last = pending;
      pending = null;
      if (last) emit(last);
      stop();
    },
  };
}
