/**
 * The ffmpeg child behind video and animated exporters: found by probing PATH, fed raw RGBA frames on stdin
 * with backpressure (a write waits for `drain`), killed before its files are deleted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { EngineError, fsError } from '../../../engine/index.js';
import { tiedToParent } from '../../../node-io/child-lifetime.js';
import { findExecutable } from '../../../node-io/search-path.js';

/** Absolute path of an executable `ffmpeg` on `searchPath` (PATH-style; the CLI passes $PATH), or null. */
export function findFfmpeg(searchPath?: string): Promise<string | null> {
  return findExecutable('ffmpeg', searchPath);
}

/** `sound`: the format is sound only (WAV, MP3, M4A), for which a picture format is no way round. */
export function missingFfmpeg(format: string, sound = false): EngineError {
  return new EngineError(
    'missing_dependency',
    `Rendering ${format} needs ffmpeg, which was not found on PATH.`,
    sound
      ? 'Install it: apt-get install ffmpeg (every sound file is mixed and encoded by it).'
      : 'Install it: apt-get install ffmpeg (or render a PNG sequence, which needs nothing else unless the composition shows video footage).',
  );
}

const STDERR_TAIL = 2000;

/**
 * stderr lines that mean the output is broken even when ffmpeg exits 0: ffmpeg 5.1 reports a failed trailer
 * or frame write (a full disk) and still exits with 0, leaving a truncated or empty file.
 */
const FATAL_STDERR = [
  /Error writing trailer/i,
  /No space left on device/i,
  /Disk quota exceeded/i,
  /Error writing/i,
  /av_interleaved_write_frame\(\): /,
  /Conversion failed!/,
];
const DISK_FULL = /No space left on device|Disk quota exceeded/i;

/** The io_error for a full volume (ENOSPC/EDQUOT), as fsError words it. */
export function diskFull(path: string): EngineError {
  return fsError({ code: 'ENOSPC' }, path, 'write');
}

const STDERR_HEAD = 1024;

export interface FfmpegOptions {
  /** The final path, named in a disk-full error (default: the last argument). */
  output?: string;
  /**
   * A `-filter_complex` graph, handed over on a pipe of its own (`-filter_complex_script pipe:3`, written and
   * closed at once): a keyframed sound level makes it longer than one argument may be (128 KiB on Linux), and
   * stdin carries the frames.
   */
  filterGraph?: string;
  /** Told the output's time from ffmpeg's -progress report, about twice a second. */
  onProgress?: (seconds: number) => void;
  /** Given what ffmpeg writes to stdout, for an output to `pipe:1` (not with onProgress, which uses it). */
  onStdout?: (chunk: Buffer) => void;
  /** Given what the graph's clip meter prints on fd 4 (graph.ts, mixGraph's `meter`); needs `filterGraph`. */
  onMeter?: (chunk: Buffer) => void;
  /**
   * Listen for an input cut short (a file copied half-way, whose header still gives its whole length): ffmpeg
   * says so only as a warning ("partial file"), and then ends its output early as if nothing were wrong. Logs at
   * warning level; `cutShort` then tells whether it was seen.
   */
  watchInputs?: boolean;
}

/**
 * How ffmpeg names an input that ends before its header says, or is damaged: mov/mp4 "partial file"; an MP3
 * smaller than its Xing header says (by over 1/16: mp3dec's check) "filesize and duration do not match"; a
 * FLAC cut inside a frame (its STREAMINFO still gives the whole length) "Error while decoding stream". A
 * decoder that fails on a packet drops its samples: a gap of silence in the mix either way.
 */
const CUT_SHORT = /: partial file\b|filesize and duration do not match|Error while decoding stream #\d+:/i;
/** A damaged packet, with the demuxer that read it (`[mov,mp4,m4a,3gp,3g2,mj2 @ 0x…] Packet corrupt`). */
const CORRUPT = /\[([\w,]+) @ 0x[0-9a-f]+\] Packet corrupt/gi;
/**
 * The WAV demuxer flags the last, shorter packet of every WAV whose header states more than the file holds. A
 * WAV written to a pipe states no length it can keep (ffmpeg 0xFFFFFFFF, SoX 0x7ffff000, some writers 0), so a
 * complete 3 s WAV from `ffmpeg … -f wav - | cat` failed every render as cut short. A WAV cut short since its
 * import is caught before the mix instead: ffprobe measures a WAV by its size, and the probe again
 * (sound-unchanged.ts) finds it shorter than recorded.
 */
const MEASURED_BY_SIZE = new Set(['wav']);
/** Where ffmpeg says which input it was: "PATH: corrupt input packet", "Error while decoding stream #N:". */
const CUT_INPUT = /^(.+): corrupt input packet in stream|Error while decoding stream #(\d+):/gm;

export class FfmpegProcess {
  readonly #child: ChildProcess;
  readonly #exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  #stderr = '';
  // The start of stderr: where ffmpeg names what it could not set up (a graph's input), before the tail drops it.
  #head = '';
  // The first fatal stderr line seen (kept apart from the bounded tail, which may drop it).
  #fatal: string | null = null;
  readonly #output: string;
  #spawnError: Error | null = null;
  #cutShort = false;
  readonly #cutInputs = new Set<string>();

  constructor(ffmpeg: string, args: string[], options: FfmpegOptions = {}) {
    const { filterGraph, onProgress, onStdout } = options;
    if (onProgress && onStdout) throw new Error('ffmpeg has one stdout: progress or output, not both');
    this.#output = options.output ?? args.at(-1) ?? '';
    const graph = filterGraph === undefined ? [] : ['-filter_complex_script', 'pipe:3'];
    // ffmpeg's own progress report (key=value lines on stdout): how far an output with no frames of ours has come.
    const progress = onProgress ? ['-progress', 'pipe:1', '-stats_period', '0.5'] : [];
    const stdout = onProgress || onStdout ? 'pipe' : 'ignore';
    this.#child = spawn(
      ...tiedToParent(ffmpeg, [
        '-hide_banner',
        '-loglevel',
        options.watchInputs ? 'warning' : 'error',
        '-nostdin',
        ...progress,
        ...graph,
        ...args,
      ]),
      {
        stdio:
          filterGraph === undefined
            ? ['pipe', stdout, 'pipe']
            : ['pipe', stdout, 'pipe', 'pipe', options.onMeter ? 'pipe' : 'ignore'],
      },
    );
    if (options.onMeter) (this.#child.stdio[4] as Readable).on('data', options.onMeter);
    if (onStdout) this.#child.stdout!.on('data', onStdout);
    if (onProgress) followProgress(this.#child.stdout!, onProgress);
    if (filterGraph !== undefined) {
      const fd3 = this.#child.stdio[3] as Writable;
      // ffmpeg gone before it read the graph: its exit code reports why.
      fd3.on('error', () => undefined);
      fd3.end(filterGraph, 'utf8');
    }
    this.#child.stderr!.setEncoding('utf8');
    // Keep only the end of stderr: it holds the reason when ffmpeg fails, and the buffer stays bounded.
    this.#child.stderr!.on('data', (s: string) => {
      if (this.#head.length < STDERR_HEAD) this.#head = (this.#head + s).slice(0, STDERR_HEAD);
      const before = this.#stderr.length;
      this.#stderr = (this.#stderr + s).slice(-STDERR_TAIL);
      // Scan the new text with the end of the old (a line may arrive in two chunks).
      const fresh = this.#stderr.slice(Math.max(0, before - s.length - 200));
      if (!this.#fatal) this.#fatal = fatalLine(fresh);
      if (options.watchInputs) this.#watchInputs(fresh);
      if (options.watchInputs)
        for (const m of fresh.matchAll(CUT_INPUT)) this.#cutInputs.add(m[1] ?? `#${m[2]}`);
    });
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

  /** Whether `text` (new stderr) says an input was cut short or damaged (a WAV's short end is neither). */
  #watchInputs(text: string): void {
    if (CUT_SHORT.test(text)) this.#cutShort = true;
    for (const m of text.matchAll(CORRUPT)) if (!MEASURED_BY_SIZE.has(m[1]!)) this.#cutShort = true;
  }

  /** With `watchInputs`: whether an input ended before its header said (its output is short of it). */
  get cutShort(): boolean {
    return this.#cutShort;
  }

  /**
   * With `watchInputs`: the inputs ffmpeg named as damaged or cut short, each as the path it was given or as
   * `#N` (its input index), where it said which.
   */
  get cutInputs(): ReadonlySet<string> {
    return this.#cutInputs;
  }

  /** The first KiB ffmpeg wrote to stderr (a setup error's own words; the failure carries the tail). */
  get stderrHead(): string {
    return this.#head;
  }

  get pid(): number | undefined {
    return this.#child.pid;
  }

  /** Writes one frame; settles once ffmpeg's pipe has taken all of it, fails if ffmpeg has died. */
  async write(data: Uint8Array): Promise<void> {
    const stdin = this.#child.stdin!;
    // A failed write (full disk) is final: stop feeding frames instead of encoding the rest for nothing.
    if (this.#fatal)
      throw DISK_FULL.test(this.#stderr)
        ? diskFull(this.#output)
        : this.#failure(`it reported "${this.#fatal}"`);
    if (this.#child.exitCode !== null || this.#child.signalCode !== null || stdin.destroyed)
      throw this.#failure('it exited before all frames were written');
    // Settled when the bytes are handed to the pipe (not merely queued in the stream): the caller may then reuse
    // the buffer, and the encoder's pace is the writer's.
    await new Promise<void>((resolve, reject) => {
      const onClose = () => done(() => reject(this.#failure('it exited before all frames were written')));
      const done = (fn: () => void) => {
        this.#child.off('close', onClose);
        fn();
      };
      this.#child.once('close', onClose);
      // A failed write (EPIPE) means ffmpeg is gone: its close rejects, as before any write.
      stdin.write(data, (err) => !err && done(resolve));
    });
  }

  /**
   * Closes stdin and waits for ffmpeg to finish the file. A non-zero exit, or a fatal stderr line with exit 0
   * (ffmpeg 5.1 exits 0 after "Error writing trailer"), fails: io_error when the disk is full, else render_failed.
   */
  async end(): Promise<void> {
    this.#child.stdin!.end();
    const { code, signal } = await this.#exited;
    if (this.#fatal && DISK_FULL.test(this.#stderr + this.#fatal)) throw diskFull(this.#output);
    if (code !== 0) throw this.#failure(signal ? `it was killed (${signal})` : `exit code ${code}`);
    if (this.#fatal) throw this.#failure(`it reported "${this.#fatal}"`);
  }

  /** Kills ffmpeg and waits until it is gone, so its output file can be deleted safely. */
  async kill(): Promise<void> {
    if (this.#child.exitCode === null && this.#child.signalCode === null) this.#child.kill('SIGKILL');
    await this.#exited;
  }

  #failure(what: string): EngineError {
    // However ffmpeg ended (early exit, broken pipe, bad trailer), a full disk is the cause to report.
    if (DISK_FULL.test(this.#stderr)) return diskFull(this.#output);
    const detail = this.#spawnError?.message ?? this.#stderr.trim().split('\n').slice(-3).join(' | ');
    return new EngineError(
      'render_failed',
      `ffmpeg failed: ${what}${detail ? ` (${detail})` : ''}.`,
      'Check that the ffmpeg build supports this format (apt-get install ffmpeg), then render again.',
    );
  }
}

/**
 * Waits for a running ffmpeg (`run`: an FfmpegProcess's end, or an AudioMixRun) to finish; if `signal` aborts
 * first, kills it, waits until it is gone (its output can then be removed) and throws `stoppedError()`.
 */
export async function untilStopped(
  run: { finished(): Promise<void>; kill(): Promise<void> },
  signal: AbortSignal | undefined,
  stoppedError: () => Error,
): Promise<void> {
  const onAbort = () => void run.kill();
  signal?.addEventListener('abort', onAbort, { once: true });
  if (signal?.aborted) onAbort();
  try {
    await run.finished();
  } catch (err) {
    if (signal?.aborted) throw stoppedError();
    throw err;
  } finally {
    signal?.removeEventListener('abort', onAbort);
  }
  if (signal?.aborted) throw stoppedError();
}

/** Calls `onProgress` with the output's time from each `out_time_us=` line of ffmpeg's -progress report. */
function followProgress(stdout: Readable, onProgress: (seconds: number) => void): void {
  let rest = '';
  stdout.setEncoding('utf8');
  stdout.on('data', (text: string) => {
    const lines = (rest + text).split('\n');
    rest = lines.pop() ?? '';
    for (const line of lines) {
      const m = /^out_time_us=(\d+)/.exec(line);
      if (m) onProgress(Number(m[1]) / 1e6);
    }
  });
}

/** The first line of `text` matching a fatal pattern, trimmed, or null. */
export function fatalLine(text: string): string | null {
  for (const line of text.split('\n')) {
    if (FATAL_STDERR.some((re) => re.test(line))) return line.trim().slice(0, 300);
  }
  return null;
}
