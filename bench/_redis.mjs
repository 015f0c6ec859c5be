// A throwaway Redis and `effectcraft-cli worker` processes for the distributed benchmarks: redis-server on a
// free loopback port without persistence, workers started from the built dist, each stopped by SIGTERM.
import { spawn, spawnSync } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { dist } from './_session.mjs';

export const hasRedis = spawnSync('which', ['redis-server']).status === 0;

export async function freePort() {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address();
  server.close();
  await once(server, 'close');
  return port;
}

/** Starts `child` and resolves once its output (stdout or stderr) contains `ready`. */
export function started(child, ready) {
  return new Promise((resolve, reject) => {
    let text = '';
    const on = (d) => {
      text += d;
      if (text.includes(ready)) resolve(child);
    };
    child.stdout?.on('data', on);
    child.stderr?.on('data', on);
    child.on('exit', (code) => reject(new Error(`exited (${code}): ${text}`)));
  });
}

export async function stop(child) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  await exited;
}

/** redis-server on a free loopback port: { url, port, child }. */
export async function startRedis() {
  const port = await freePort();
  const child = await started(
    spawn('redis-server', [
      '--port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--save',
      '',
      '--appendonly',
      'no',
    ]),
    'Ready to accept connections',
  );
  return { url: `redis://127.0.0.1:${port}`, port, child };
}

/** `count` workers of the built CLI on `url`, one render thread each (so they share the cores as a local render). */
export function startWorkers(url, count) {
  return Promise.all(
    Array.from({ length: count }, () =>
      started(
        spawn(process.execPath, [join(dist, 'cli.js'), 'worker', '--redis', url, '--concurrency', '1']),
        'waiting for render jobs',
      ),
    ),
  );
}
