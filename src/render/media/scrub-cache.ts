/**
 * The scrub cache: video frames kept as JPEGs in memory, for previews that jump about (render_preview at
 * random times, the studio's scrubbing). A seek costs a new ffmpeg (about 60 ms before it reads a byte) and the
 * decoding of every frame from the key frame before: 150-350 ms for a 1080p frame, on every seek. Here one
 * ffmpeg per clip (a run) decodes on in order from a seek and hands back each frame as a JPEG; later seeks to
 * those frames decode a kept JPEG in-process (about 12 ms at 1080p).
 * - A seek that misses with no run going starts one there and waits for its first frame; the run then goes on
 *   at a lowered priority. A seek a few frames ahead of the run waits for it.
 * - A seek elsewhere while the run goes on is decoded by the caller (an exact seek), and the next run starts
 *   there. When nobody asks, a run fills the clip's first gap while the budget has room.
 *
 * What it costs: a JPEG at ffmpeg's finest quality, 4:2:0 like the sources it stands in for, differs from the
 * exact frame by a few levels. Only previews use it; final renders and frame.save always decode exactly.
 * Bounded in bytes: the least recently used clip goes first, then a clip's frames farthest from its run.
 */
import type { ChildProcess } from 'node:child_process';
import { setPriority } from 'node:os';
import { MjpegSplitter } from './mjpeg-stream.js';

/** Frames one run covers at most: 30 s of 30 fps video from the seek that asked for it. */
export const RUN_FRAMES = 900;
/** A seek this few frames ahead of a run waits for it rather than starting another (about 0.2 s of decoding). */
const WAIT_FRAMES = 12;
/** Niceness of a run once nobody waits for it: the previews a person waits for come first. */
const RUN_NICENESS = 10;
/**
 * Runs going at once across clips. A seek that starts one more stops the least recently used clip's run that no
 * seek waits on and neither this frame nor the one before asked for (a preview of a grid of more clips scrubs
 * them all); a gap filler waits its turn. Previews at random times across a 16-clip edit had a run going for
 * every clip (16 ffmpeg of ~100 MB each) until the budget was full.
 */
const MAX_RUNS = 3;
/** Eviction goes down to this share of the budget, so a full cache does not evict on every frame. */
const REFILL = 0.9;

interface Run {
  /** Null until the owner's spawnAt has started it. */
  child: ChildProcess | null;
  start: number;
  /** A run that fills a gap nobody asked for: it stops rather than evict anything. */
  fill: boolean;
  /** Index of the frame the run delivers next. */
  next: number;
  stopped: boolean;
}

/**
 * A run's decoder as its owner started it: `ready` settles once the file is known to be the one imported (a
 * header check that runs while the decoder starts); until then its frames wait, and if it rejects the run ends
 * without keeping any.
 */
export interface Spawned {
  child: ChildProcess;
  ready: Promise<void>;
}

interface Clip {
  /** Frames the clip has. */
  count: number;
  frames: Map<number, Buffer>;
  bytes: number;
  run: Run | null;
  /** The last seek the run could not serve: where the next run starts. */
  wanted: number | null;
  /** Seeks waiting for a frame of the run, by frame index. */
  waiting: Map<number, ((jpeg: Buffer | undefined) => void)[]>;
  /** Starts this clip's decoder at a frame (the owner's: it knows how the file is opened). */
  spawnAt: (index: number) => Promise<Spawned>;
  /** The frame (the cache's count of frames begun) that last asked for one of its frames. */
  askedIn: number;
}

export class ScrubCache {
  readonly #budget: number;
  /** By key, least recently used first. */
  readonly #clips = new Map<string, Clip>();
  #bytes = 0;
  #closed = false;
  /** Frames begun (nextFrame): a clip asked for in this one or the one before keeps its run. */
  #frame = 0;

  constructor(budgetBytes: number) {
    this.#budget = budgetBytes;
  }

  /** A new frame (a preview) begins: the clips it asks for are its own (see MAX_RUNS). */
  nextFrame(): void {
    this.#frame++;
  }

  /** Whether frame `index` of clip `key` is kept (a `frame` that returns at once). */
  keeps(key: string, index: number): boolean {
    return this.#clips.get(key)?.frames.has(index) ?? false;
  }

  /**
   * The JPEG of frame `index` of clip `key` (`count` frames): kept, or from a run that delivers it (one started
   * there when no run is going). Undefined when the caller is to decode the frame itself: the run is busy
   * elsewhere (the next one then starts at `index`), or it could not deliver (the clip does not decode, and the
   * caller's own decoder reports why).
   */
  async frame(
    key: string,
    index: number,
    count: number,
    spawnAt: (index: number) => Promise<Spawned>,
  ): Promise<Buffer | undefined> {
    let clip = this.#clips.get(key);
    const kept = clip?.frames.get(index);
    if (clip && kept) {
      clip.askedIn = this.#frame;
      this.#clips.delete(key);
      this.#clips.set(key, clip);
      return kept;
    }
    if (this.#closed || this.#budget <= 0) return undefined;
    if (!clip) {
      clip = {
        count,
        frames: new Map(),
        bytes: 0,
        run: null,
        wanted: null,
        waiting: new Map(),
        spawnAt,
        askedIn: this.#frame,
      };
      this.#clips.set(key, clip);
    }
    clip.askedIn = this.#frame;
    const run = clip.run;
    if (run && !run.fill && index >= run.next && index - run.next <= WAIT_FRAMES) {
      if (index < run.start + RUN_FRAMES) return this.#wait(clip, index);
    }
    if (run && !run.fill) {
      // The run is busy elsewhere: the caller seeks this one itself, and the run after this one starts here.
      clip.wanted = index;
      return undefined;
    }
    // A gap filler gives way to a seek that asks.
    this.#stop(clip);
    this.#start(key, clip, index, false, false);
    return this.#wait(clip, index);
  }

  #wait(clip: Clip, index: number): Promise<Buffer | undefined> {
    return new Promise((resolve) => {
      const list = clip.waiting.get(index) ?? [];
      list.push(resolve);
      clip.waiting.set(index, list);
    });
  }

  /** `niced`: nobody waits for its first frame, so it runs at a lowered priority from the start. */
  #start(key: string, clip: Clip, index: number, fill: boolean, niced: boolean): void {
    if (!this.#roomForRun(clip, fill)) return;
    const run: Run = { child: null, start: index, fill, next: index, stopped: false };
    clip.run = run;
    clip.spawnAt(index).then(
      ({ child, ready }) => {
        run.child = child;
        if (run.stopped) return void child.kill('SIGKILL');
        if (niced) this.#lower(child);
        this.#follow(key, clip, run, ready);
      },
      () => this.#ended(key, clip, run),
    );
  }

  /**
   * Whether `clip` may start a run under MAX_RUNS: a gap filler only when there is room, a seek by stopping the
   * least recently used clip's run nobody waits on (when every run has a seek waiting, it starts all the same).
   */
  #roomForRun(clip: Clip, fill: boolean): boolean {
    const going = [...this.#clips.values()].filter((c) => c !== clip && c.run);
    if (going.length < MAX_RUNS) return true;
    if (fill) return false;
    // #clips is in least recently used order.
    const idle = going.find((c) => c.run!.fill || (c.waiting.size === 0 && c.askedIn < this.#frame - 1));
    if (idle) this.#stop(idle);
    return true;
  }

  #lower(child: ChildProcess): void {
    if (child.pid === undefined) return;
    try {
      setPriority(child.pid, RUN_NICENESS);
    } catch {
      // Not permitted, or already gone: it runs at normal priority.
    }
  }

  /**
   * Reads the run's JPEGs. Listened to at once (a short clip's decoder may be done before `ready`), each event
   * handled once `ready` has settled, in the order they came; a rejected `ready` stops the run instead.
   */
  #follow(key: string, clip: Clip, run: Run, ready: Promise<void>): void {
    const child = run.child!;
    const splitter = new MjpegSplitter();
    let checked = false;
    const settled = ready.then(
      () => void (checked = true),
      () => (clip.run === run ? this.#stop(clip) : void child.kill('SIGKILL')),
    );
    const afterCheck = (handle: () => void) => void settled.then(() => checked && handle());
    child.stdout!.on('data', (chunk: Buffer) =>
      afterCheck(() => {
        splitter.push(chunk, (jpeg) => this.#deliver(key, clip, run, jpeg));
        if (splitter.broken) this.#stop(clip);
      }),
    );
    child.stderr!.resume();
    child.on('error', () => afterCheck(() => this.#ended(key, clip, run)));
    child.on('close', () => afterCheck(() => this.#ended(key, clip, run)));
  }

  #deliver(key: string, clip: Clip, run: Run, jpeg: Buffer): void {
    if (run.stopped) return;
    const index = run.next++;
    if (index === run.start) this.#lower(run.child!);
    const waiters = clip.waiting.get(index);
    clip.waiting.delete(index);
    const kept = clip.frames.has(index);
    if (!kept && !(run.fill && this.#bytes + jpeg.length > this.#budget)) {
      clip.frames.set(index, jpeg);
      clip.bytes += jpeg.length;
      this.#bytes += jpeg.length;
    }
    waiters?.forEach((w) => w(jpeg));
    // The budget is used: no more runs. Frames from here on are kept already (an earlier run), or the run has
    // done its share: a gap filler may take over.
    if (!clip.frames.has(index) || !this.#fits(key, run)) this.#stop(clip);
    else if ((kept && clip.waiting.size === 0) || index + 1 - run.start >= RUN_FRAMES)
      this.#ended(key, clip, run);
  }

  /**
   * Evicts other clips, least recently used first, then this clip's frames farthest from where its run started
   * (never the run's own), until the budget holds with room to spare; false when the run's own frames fill it.
   */
  #fits(key: string, run: Run): boolean {
    if (this.#bytes <= this.#budget) return true;
    for (const [other, clip] of this.#clips) {
      if (this.#bytes <= this.#budget * REFILL) break;
      if (other === key) continue;
      this.#stop(clip);
      this.#bytes -= clip.bytes;
      this.#clips.delete(other);
    }
    const clip = this.#clips.get(key)!;
    const older = [...clip.frames.keys()].filter((i) => i < run.start || i >= run.next);
    older.sort((a, b) => Math.abs(b - run.start) - Math.abs(a - run.start));
    for (const index of older) {
      if (this.#bytes <= this.#budget * REFILL) break;
      this.#bytes -= clip.frames.get(index)!.length;
      clip.bytes -= clip.frames.get(index)!.length;
      clip.frames.delete(index);
    }
    return this.#bytes <= this.#budget;
  }

  /** Ends the clip's run: its child killed, every seek still waiting on it answered with what is kept. */
  #stop(clip: Clip): void {
    const run = clip.run;
    if (!run) return;
    run.stopped = true;
    clip.run = null;
    run.child?.kill('SIGKILL');
    for (const [index, list] of clip.waiting) list.forEach((w) => w(clip.frames.get(index)));
    clip.waiting.clear();
  }

  /** A run is over (its end, or its share done): the next fills a gap, unless this one delivered nothing. */
  #ended(key: string, clip: Clip, run: Run): void {
    if (clip.run !== run) return;
    this.#stop(clip);
    // A run that delivered nothing cannot decode the clip: no more runs (the seeks say why).
    const delivered = run.next > run.start;
    if (!delivered || this.#closed || this.#clips.get(key) !== clip) return;
    // On from the last seek the run could not serve (where the person is now; it may evict), else from the first
    // frame not kept yet while the budget has room (scrubbing comes back).
    const wanted = clip.wanted;
    clip.wanted = null;
    if (wanted !== null && !clip.frames.has(wanted)) return this.#start(key, clip, wanted, false, true);
    if (this.#bytes >= this.#budget * REFILL) return;
    for (let i = 0; i < clip.count; i++)
      if (!clip.frames.has(i)) return this.#start(key, clip, i, true, true);
  }

  /** Kills every run and drops every frame; nothing starts afterwards. */
  close(): void {
    this.#closed = true;
    for (const clip of this.#clips.values()) this.#stop(clip);
    this.#clips.clear();
    this.#bytes = 0;
  }
}
