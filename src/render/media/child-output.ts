/**
 * A short-lived child process (ffprobe) whose whole output we want: bounded in bytes and in time, and always
 * ended (killed on timeout, on overflow and on cancellation) before the promise settles.
 */
import { spawn } from 'node:child_process';
import { EngineError } from '../../engine/core.js';

export interface BoundedRun {
  code: number | null;
  stdout: Buffer;
  /** The end of stderr (bounded). */
  stderr: string;
}

export interface BoundedOptions {
  timeoutMs: number;
  maxBytes: number;
  /** What is being done, for errors: `Probing "clip.mp4"`. */
  what: string;
  signal?: AbortSignal;
}

const STDERR_TAIL = 4000;

/** Runs `cmd args` to its end; throws timeout, or tool_failed when it prints more than `maxBytes`. */
export function runBounded(cmd: string, args: string[], options: BoundedOptions): Promise<BoundedRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'pipe', 'pipe'] });
    const chunks: Buffer[] = [];
    let bytes = 0;
    let stderr = '';
    let failure: EngineError | null = null;
    const stop = (err: EngineError) => {
      failure ??= err;
      child.kill('SIGKILL');
    };
    const timer = setTimeout(
      () =>
        stop(
          new EngineError(
            'timeout',
            `${options.what} took longer than ${options.timeoutMs / 1000} s and was stopped.`,
            'Check that the file is on a local disk and not damaged, then try again.',
          ),
        ),
      options.timeoutMs,
    );
    const onAbort = () =>
      stop(new EngineError('cancelled', `${options.what} was cancelled.`, 'Run it again.'));
    options.signal?.addEventListener('abort', onAbort, { once: true });
    if (options.signal?.aborted) onAbort();
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > options.maxBytes)
        stop(
          new EngineError(
            'tool_failed',
            `${options.what} printed more than ${options.maxBytes} bytes and was stopped.`,
            'The file holds far more streams or frames than expected; check it with ffprobe.',
          ),
        );
      else chunks.push(chunk);
    });
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (s: string) => (stderr = (stderr + s).slice(-STDERR_TAIL)));
    child.on('error', (err) =>
      stop(
        new EngineError(
          'tool_failed',
          `${options.what} failed: ${err.message}`,
          'Check the ffmpeg installation (apt-get install ffmpeg).',
        ),
      ),
    );
    child.on('close', (code) => {
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      if (failure) reject(failure);
      else resolve({ code, stdout: Buffer.concat(chunks), stderr });
    });
  });
}
