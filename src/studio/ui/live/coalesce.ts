/**
 * Runs `task` at most once at a time. A call made while it runs schedules exactly one more run after it (however
 * many calls came meanwhile) and resolves when that run ends, so every caller sees a result that started after
 * its call: a burst of document-changed events costs two session.view requests, not one per event.
 */
export function coalesced(task: () => Promise<void>): () => Promise<void> {
  let running: Promise<void> | null = null;
  let queued: Promise<void> | null = null;
  const start = (): Promise<void> => {
    const run = task().finally(() => {
      if (running === run) running = null;
    });
    running = run;
    return run;
  };
  return () => {
    if (!running) return start();
    queued ??= running
      .catch(() => undefined)
      .then(() => {
        queued = null;
        return start();
      });
    return queued;
  };
}
