/**
 * Redis connections for the coordinator and the workers. The coordinator fails fast: a render command must
 * say "Redis is down" within seconds, never retry forever. A worker is a long-lived service and reconnects
 * (BullMQ requires maxRetriesPerRequest null for its blocking connection).
 */
import type { RedisOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { EngineError, type Remedy } from '../../engine/index.js';

const CONNECT_TIMEOUT_MS = 3000;

/** The ioredis options of a redis:// URL (host, port, db, password), or bad_argument. */
export function redisOptions(url: string): RedisOptions {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badUrl(url);
  }
  if (parsed.protocol !== 'redis:' || !parsed.hostname) throw badUrl(url);
  const db = parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0;
  if (!Number.isInteger(db) || db < 0) throw badUrl(url);
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, ''),
    port: parsed.port ? Number(parsed.port) : 6379,
    db,
    ...(parsed.username && { username: decodeURIComponent(parsed.username) }),
    ...(parsed.password && { password: decodeURIComponent(parsed.password) }),
  };
}

function badUrl(url: string): EngineError {
  return new EngineError(
    'bad_argument',
    `"${url}" is not a Redis URL.`,
    (w) => `Give ${w.param('redis')} as redis://HOST:PORT (optionally /DB), e.g. redis://127.0.0.1:6379.`,
  );
}

/** The coordinator's options: a bounded connect, no offline queue, no reconnect loop. */
export function coordinatorOptions(url: string): RedisOptions {
  return {
    ...redisOptions(url),
    connectTimeout: CONNECT_TIMEOUT_MS,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    // Two quick retries cover a blip; then commands fail and the render reports Redis as unreachable.
    retryStrategy: (times: number) => (times > 2 ? null : 200 * times),
  };
}

/** A worker's options: BullMQ's blocking connection needs maxRetriesPerRequest null; it reconnects forever. */
export function workerOptions(url: string): RedisOptions {
  return {
    ...redisOptions(url),
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: null,
    retryStrategy: (times: number) => Math.min(times * 500, 5000),
  };
}

/** A plain client (cancel broadcast, cancel checks) with the coordinator's fail-fast options. */
export function commandClient(url: string): Redis {
  const client = new Redis({
    ...redisOptions(url),
    connectTimeout: CONNECT_TIMEOUT_MS,
    maxRetriesPerRequest: 1,
    retryStrategy: (times: number) => (times > 2 ? null : 200 * times),
  });
  client.on('error', () => undefined);
  return client;
}

/**
 * Throws not_configured naming the URL when Redis does not answer a PING within the connect timeout. `remedy`:
 * what to do, in the words of the surface that was given the URL (default: the render command's).
 */
export async function assertRedisReachable(url: string, remedy?: Remedy): Promise<void> {
  const client = new Redis({
    ...redisOptions(url),
    connectTimeout: CONNECT_TIMEOUT_MS,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    lazyConnect: true,
    retryStrategy: () => null,
  });
  // ioredis emits 'error' for a refused connection as well as rejecting connect(): a listener keeps it quiet.
  // The event carries the cause (ECONNREFUSED, ETIMEDOUT); the rejection only says the connection closed.
  let cause: Error | undefined;
  client.on('error', (err: Error) => (cause ??= err));
  try {
    await client.connect();
    await client.ping();
  } catch (err) {
    throw new EngineError(
      'not_configured',
      `Cannot reach Redis at ${url} (${(cause ?? (err as Error)).message || 'no answer'}).`,
      remedy ??
        ((w) =>
          `Start Redis there (redis-server --port PORT), check ${w.param('redis')}, or render without it to render on this machine.`),
    );
  } finally {
    client.disconnect();
  }
}

// A render checks Redis this often while it waits for its flows; two unanswered PINGs in a row mean it is lost.
const WATCH_INTERVAL_MS = 1000;
const WATCH_MISSES = 2;

/** Watches Redis through `client` until closed; see watchRedis. */
export interface RedisWatch {
  /** Resolves with the cause once Redis stopped answering; never rejects. */
  readonly lost: Promise<Error>;
  close(): void;
}

/**
 * Watches Redis while a render waits on BullMQ's events: on a lost connection that reader waits for ever (it must
 * retry without end), so without this a render whose Redis went away mid-render would hang instead of failing.
 */
export function watchRedis(client: Redis): RedisWatch {
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  let misses = 0;
  const lost = new Promise<Error>((resolve) => {
    const tick = async () => {
      let answer: NodeJS.Timeout | undefined;
      try {
        await Promise.race([
          client.ping(),
          new Promise((_, reject) => {
            answer = setTimeout(() => reject(new Error('no answer')), CONNECT_TIMEOUT_MS);
          }),
        ]);
        misses = 0;
      } catch (err) {
        if (++misses >= WATCH_MISSES) return resolve(err as Error);
      } finally {
        clearTimeout(answer);
      }
      if (!closed) timer = setTimeout(() => void tick(), WATCH_INTERVAL_MS);
    };
    timer = setTimeout(() => void tick(), WATCH_INTERVAL_MS);
  });
  return {
    lost,
    close() {
      closed = true;
      clearTimeout(timer);
    },
  };
}
