/**
 * The ffmpeg child behind video and animated exporters: found by probing PATH, fed raw RGBA frames on stdin
 * with backpressure (a write waits for `drain`), killed before its files are deleted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { constants, promises as fs } from 'node:fs';
import { delimiter, join } from 'node:path';
import { EngineError } from '../../../engine/index.js';

/** Absolute path of an executable `ffmpeg` on PATH, or null. */
export async function findFfmpeg(pathVar = process.env.PATH ?? ''): Promise<string | null> {
  for (const dir of pathVar.split(delimiter).filter(Boolean)) {
    const candidate = join(dir, 'ffmpeg');
    const ok = await fs.access(candidate, constants.X_OK).then(
      () => true,
      () => false,
    );
    if (ok) return candidate;
  }
  return null;
}

export function missingFfmpeg(format: string): EngineError {
  return new EngineError(
    'missing_dependency',
    `Rendering ${format} needs ffmpeg, which was not found on PATH.`,
    'Install it: apt-get install ffmpeg (or render a PNG sequence, which needs nothing else).',
  );
}

const STDERR_TAIL = 2000;

export class FfmpegProcess {
  readonly #child: ChildProcess;
  readonly #exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  #stderr = '';
  #spawnError: Error | null = null;

  constructor(ffmpeg: string, args: string[]) {
    this.#child = spawn(ffmpeg, ['-hide_banner', '-loglevel', 'error', '-nostdin', ...args], {
      stdio: ['pipe', 'ignore', 'pipe'],
    });
    this.#child.stderr!.setEncoding('utf8');
    // Keep only the end of stderr: it holds the reason when ffmpeg fails, and the buffer stays bounded.
    this.#child.stderr!.on('data', (s: string) => (this.#stderr = (this.#stderr + s).slice(-STDERR_TAIL)));
    // A dead ffmpeg makes stdin emit EPIPE; the exit code reports the failure, so swallow it here.
    this.#child.stdin!.on('error', () => undefined);
    this.#exited = new Promise((resolve) => {
      this.#child.on('error', (err) => {
        this.#spawnError = err;
        resolve({ code: null, signal: null });
      });
      this.#child.on('close', (code, signal) => resolve({ code, signal }));
    });
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** Writes one frame; waits for `drain` when the pipe is full, fails if ffmpeg has died. */
  async write(data: Uint8Array): Promise<void> {
    const stdin = this.#child.stdin!;
    if (this.#child.exitCode !== null || this.#child.signalCode !== null || stdin.destroyed)
      throw this.#failure('it exited before all frames were written');
    if (stdin.write(data)) return;
    await new Promise<void>((resolve, reject) => {
      const onDrain = () => done(resolve);
      const onClose = () => done(() => reject(this.#failure('it exited before all frames were written')));
      const done = (fn: () => void) => {
        stdin.off('drain', onDrain);
        this.#child.off('close', onClose);
        fn();
      };
      stdin.once('drain', onDrain);
      this.#child.once('close', onClose);
    });
  }

  /** Closes stdin and waits for ffmpeg to finish the file; non-zero exit is a render_failed. */
  async end(): Promise<void> {
    this.#child.stdin!.end();
    const { code, signal } = await this.#exited;
    if (code !== 0) throw this.#failure(signal ? `it was killed (${signal})` : `exit code ${code}`);
  }

  /** Kills ffmpeg and waits until it is gone, so its output file can be deleted safely. */
  async kill(): Promise<void> {
    if (this.#child.exitCode === null && this.#child.signalCode === null) this.#child.kill('SIGKILL');
    await this.#exited;
  }

  #failure(what: string): EngineError {
    const detail = this.#spawnError?.message ?? this.#stderr.trim().split('\n').slice(-3).join(' | ');
    return new EngineError(
      'render_failed',
      `ffmpeg failed: ${what}${detail ? ` (${detail})` : ''}.`,
      'Check that the ffmpeg build supports this format (apt-get install ffmpeg), then render again.',
    );
  }
}
