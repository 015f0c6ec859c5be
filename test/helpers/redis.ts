/**
 * A throwaway Redis for distributed-render tests: Debian's redis-server on a free loopback port, without
 * persistence, stopped after the test. Without redis-server those tests skip; CI installs it and sets
 * EFFECTCRAFT_REQUIRE_REDIS=1, which turns a missing redis-server into a failure instead of a skip.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { describe } from 'vitest';
import { onPath } from './ffmpeg.js';

export const hasRedis = onPath('redis-server');

if (!hasRedis && process.env.EFFECTCRAFT_REQUIRE_REDIS === '1') {
  throw new Error(
    'EFFECTCRAFT_REQUIRE_REDIS=1 but redis-server is not on PATH: install it (apt-get install redis-server).',
  );
}

export const describeWithRedis = describe.skipIf(!hasRedis);

/** A loopback port nothing listens on (picked by the OS, then released). */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  await once(server, 'close');
  return port;
}

export interface RedisServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * Starts redis-server on a free loopback port (or `port`: a Redis restarted where the last one ran); resolves
 * once it accepts connections.
 */
export async function startRedis(port?: number): Promise<RedisServer> {
  port ??= await freePort();
  const child: ChildProcess = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (d: Buffer) => {
      output += d.toString();
      if (output.includes('Ready to accept connections')) resolve();
    };
    child.stdout!.on('data', onData);
    child.on('exit', (code) => reject(new Error(`redis-server exited (${code}): ${output}`)));
  });
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    },
  };
}
