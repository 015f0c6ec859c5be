/** `effectcraft-cli worker --redis URL` processes for distributed-render tests, with their logs. */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { cliPath } from './cli.js';

export interface Worker {
  child: ChildProcess;
  log: () => string;
}

/** Starts `effectcraft-cli worker --redis url`; resolves once it waits for jobs. */
export async function startWorker(url: string, extra: string[] = []): Promise<Worker> {
  const child = spawn(process.execPath, [cliPath, 'worker', '--redis', url, '--concurrency', '1', ...extra], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on('data', (d: Buffer) => {
      log += d.toString();
      if (log.includes('waiting for render jobs')) resolve();
    });
    child.on('exit', (code) => reject(new Error(`worker exited (${code}): ${log}`)));
  });
  return { child, log: () => log };
}

export async function stopWorker(w: Worker): Promise<void> {
  // A worker killed by a signal has a signalCode and no exitCode.
  if (w.child.exitCode !== null || w.child.signalCode !== null) return;
  const exited = once(w.child, 'exit');
  w.child.kill('SIGTERM');
  await exited;
}

/** How many chunks the workers have started so far (their logs name each chunk's frames). */
export function chunksTaken(workers: Worker[]): number {
  return workers.flatMap((w) => w.log().match(/frames \d+-\d+/g) ?? []).length;
}
