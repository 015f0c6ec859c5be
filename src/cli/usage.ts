/** CLI usage errors: a clear message and exit code 2, never a stack trace. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

export const EXIT = { ok: 0, failed: 1, usage: 2, cancelled: 130 } as const;
