/** --redis URL, --chunk-size N, --attempts N and --backoff MS, parsed the same way for `render` and `mcp` (docs/distributed.md). */
import { DEFAULT_CHUNK_SIZE } from '../render/distributed/chunks.js';
import { DEFAULT_ATTEMPTS, DEFAULT_BACKOFF_MS } from '../render/distributed/retry-defaults.js';
import { parseWhole, UsageError } from './usage.js';

const MAX_CHUNK = 1_000_000;
const MAX_ATTEMPTS = 100;
// An hour: a longer wait is a stuck render, not a retry.
const MAX_BACKOFF_MS = 3_600_000;

export interface DistributedFlags {
  url: string;
  chunkSize: number;
  attempts: number;
  backoffMs: number;
}

/** Where renders go when they run on workers: undefined without --redis; the other flags alone are a usage error. */
export function distributedFromFlags(values: {
  redis?: string;
  'chunk-size'?: string;
  attempts?: string;
  backoff?: string;
}): DistributedFlags | undefined {
  const needRedis = (['chunk-size', 'attempts', 'backoff'] as const).filter((f) => values[f] !== undefined);
  if (needRedis.length && values.redis === undefined)
    throw new UsageError(
      `${needRedis.map((f) => `--${f}`).join(', ')} need${needRedis.length > 1 ? '' : 's'} --redis.`,
    );
  if (values.redis === undefined) return undefined;
  return {
    url: values.redis,
    chunkSize: parseWhole(values['chunk-size'], '--chunk-size', 1, MAX_CHUNK) ?? DEFAULT_CHUNK_SIZE,
    attempts: parseWhole(values.attempts, '--attempts', 1, MAX_ATTEMPTS) ?? DEFAULT_ATTEMPTS,
    backoffMs: parseWhole(values.backoff, '--backoff', 0, MAX_BACKOFF_MS) ?? DEFAULT_BACKOFF_MS,
  };
}
