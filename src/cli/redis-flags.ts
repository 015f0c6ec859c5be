/** --redis URL and --chunk-size N, parsed the same way for `render` and `mcp` (docs/distributed.md). */
import { DEFAULT_CHUNK_SIZE } from '../render/distributed/chunks.js';
import { parseWhole, UsageError } from './usage.js';

const MAX_CHUNK = 1_000_000;

/** Where renders go when they run on workers: undefined without --redis; --chunk-size alone is a usage error. */
export function distributedFromFlags(values: {
  redis?: string;
  'chunk-size'?: string;
}): { url: string; chunkSize: number } | undefined {
  if (values['chunk-size'] !== undefined && values.redis === undefined)
    throw new UsageError('--chunk-size needs --redis.');
  if (values.redis === undefined) return undefined;
  return {
    url: values.redis,
    chunkSize: parseWhole(values['chunk-size'], '--chunk-size', 1, MAX_CHUNK) ?? DEFAULT_CHUNK_SIZE,
  };
}
