/**
 * Decoded frames of moving footage (video and image sequences) for one renderer (one thread): a long-lived
 * ffmpeg decoder per video read in order (the sequential fast path of a render), a new seeking decoder when a
 * frame is far from where the decoder is (previews, scrubbing), blocks of frames decoded together for footage
 * read backwards (reversed layers), sharp for sequence files,
 * an LRU cache of decoded frames bounded in bytes, and for previews the scrub cache (scrub-cache.ts), which
 * stands in for a seek with a kept JPEG of the frame.
 */
import { createCanvas, Image, ImageData, type Canvas } from '@napi-rs/canvas';
import { EngineError, sequenceFrame, type FootageItem } from '../../engine/core.js';
import { untaggedMatrix } from './clip-colour.js';
import { spawnDecoder, VideoDecoder, type DecoderSpec } from './decoder.js';
import { checkUnchanged } from './footage-unchanged.js';
import { missingFootage } from './missing-footage.js';
import { ScrubCache, type Spawned } from './scrub-cache.js';
import { seekPlan, seeksWithoutIndex } from './seek-plan.js';
import { TimestampCache } from './timestamps.js';

/** How moving footage is reached from this thread; every read goes through the owner's (confined) ports. */
export interface MediaAccess {
  /** Absolute path of ffmpeg (null: not installed; video footage then fails with missing_dependency). */
  ffmpeg: string | null;
  /** ffprobe beside it, for the frame times of variable-rate video (null: assume constant rate). */
  ffprobe: string | null;
  /** The path a child process opens for footage file `path`: a descriptor opened and checked by the owner. */
  open(path: string): Promise<string>;
  /**
   * true when the owner has already checked every file it opens against its footage item (a render's main
   * thread does, footage-input.ts): decoders then start without that check. Otherwise each file is checked once.
   */
  checked?: boolean;
  /** Bytes of a sequence frame (the engine's ports). */
  readFile(path: string): Promise<Buffer>;
  /** Told each decoder's pid as it starts and ends, so whoever owns this thread can end leftovers. */
  onChild?(pid: number, alive: boolean): void;
}

const closedError = (): EngineError =>
  new EngineError('cancelled', 'The renderer was closed.', 'Render again.');

/** Reading on through this many frames is cheaper than a new seeking decoder (about 2 s of video). */
const MAX_FORWARD_FRAMES = 60;
/**
 * A kept scrub-cache JPEG (decoded in ~10-12 ms at 1080p) is cheaper than reading on through more frames than
 * this (~8 ms each at 1080p, with the conversion to RGBA).
 */
const SCRUB_READ_ON = 2;

/** A clip's key in the scrub cache; the item's id too: a re-import of a changed file is a new item. */
const scrubKey = (item: FootageItem) => `${item.id}:${item.path}:${item.width}x${item.height}`;
/**
 * Decoders kept per file and output: a clip shown twice at different times (a copy offset in time, a precomp
 * used twice) reads on in each, where one decoder sought back for every other frame.
 */
const MAX_RUNS_PER_FILE = 3;
/**
 * A decoder not read while this many frames were begun ends: its clip has left the frames being drawn (a shot
 * of an edit that has ended, a clip not previewed lately). Each held ~90 MB at 1080p and a socket until the
 * renderer closed, so a render of a 16-shot edit ended with 17 ffmpeg processes and 2.3 GB. Coming back later
 * costs one seek, which a frame this far ahead (speed 1) needed anyway (MAX_FORWARD_FRAMES).
 */
const IDLE_DECODER_FRAMES = 60;
/**
 * Decoders kept across files: starting one more ends the least recently read one that neither the frame being
 * drawn nor the one before used. Previews at random times across a 16-clip edit kept a decoder per clip (and
 * per clip's copies) for their 60 idle frames: 17 ffmpeg and 2.2 GB. A frame that shows more clips at once still
 * gets them all.
 */
const MAX_DECODERS = 6;
/** Evicted canvases kept for reuse. */
const MAX_SPARE = 2;
/**
 * Footage read backwards (a reversed layer, or stepping back in a preview) asks each time for a frame before
 * the decoder's, and each was a new seeking decoder decoding on from the key frame before: with a long GOP
 * (x264's default is 250 frames) a reversed clip cost frames x GOP decodes. A step back of at most this many
 * frames instead decodes a block of the frames before the wanted one with one decoder and keeps them.
 */
const MAX_BACK_STEP = 8;
/**
 * The bytes the blocks of frames read backwards may hold together, shared by the clips read so (one clip at
 * 1080p: 12 RGBA frames, 32 I420 ones).
 */
const BACK_BLOCK_BYTES = 96 * 1024 * 1024;
const MAX_BACK_BLOCK_FRAMES = 48;

interface Running {
  decoder: VideoDecoder;
  /** Index of the frame `decoder.next()` yields next. */
  next: number;
  last: Buffer | null;
  /** When it was last read from (the store's count of reads): the least recent goes first. */
  used: number;
  /** The frame (the store's count of frames begun) it was last read for: long idle, it ends (see hold). */
  frame: number;
  /** The frame it was started at: above 0, it sought there. */
  from: number;
}

/** The run that reaches frame `index` by reading on (or holds it as its last frame), the nearest one. */
function reaching(runs: readonly Running[], index: number): Running | undefined {
  let best: Running | undefined;
  for (const run of runs) {
    const holds = run.last !== null && run.next - 1 === index;
    const reads = run.next <= index && index - run.next <= MAX_FORWARD_FRAMES;
    if ((holds || reads) && (!best || run.next > best.next)) best = run;
  }
  return best;
}

/** Frames `first .. first + frames.length - 1` of a clip, decoded together for reading backwards. */
interface BackBlock {
  first: number;
  frames: Buffer[];
  frameBytes: number;
}

export function missingFfmpegForFootage(item: FootageItem): EngineError {
  return new EngineError(
    'missing_dependency',
    `Footage "${item.name}" is video, and decoding it needs ffmpeg, which was not found on PATH.`,
    'Install it: apt-get install ffmpeg (image sequences and stills need nothing else).',
  );
}

/**
 * A Skia canvas holding straight-alpha RGBA pixels (Skia premultiplies on the way in); `spare` is reused when it
 * has the size (putImageData replaces every pixel).
 */
export function canvasOf(rgba: Buffer, width: number, height: number, spare?: Canvas): Canvas {
  const canvas =
    spare && spare.width === width && spare.height === height ? spare : createCanvas(width, height);
  const pixels = new Uint8ClampedArray(rgba.buffer, rgba.byteOffset, width * height * 4);
  canvas.getContext('2d').putImageData(new ImageData(pixels, width, height), 0, 0);
  return canvas;
}

/**
 * A JPEG decoded by Skia (off this thread) and drawn into a canvas, `spare` reused when it has the size; null
 * when it is not `width` x `height`. The same libjpeg-turbo pixels as sharp's, without sharp's RGBA buffer and
 * the putImageData that copies it in: about 8 ms less a 1080p scrub frame.
 */
export async function jpegCanvas(
  jpeg: Buffer,
  width: number,
  height: number,
  spare?: Canvas,
): Promise<Canvas | null> {
  const image = new Image();
  image.src = jpeg;
  await image.decode();
  if (image.width !== width || image.height !== height) return null;
  const canvas =
    spare && spare.width === width && spare.height === height ? spare : createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.save();
  // Every pixel replaced, as putImageData does: a reused canvas keeps nothing of its last frame.
  ctx.globalCompositeOperation = 'copy';
  ctx.drawImage(image, 0, 0);
  ctx.restore();
  return canvas;
}

/** Decoders are per file and output: a clip may feed a plate (I420) and other layers (RGBA) at once. */
const runKey = (item: FootageItem, output: 'rgba' | 'i420') =>
  output === 'rgba' ? item.path : `${item.path}\0i420`;

export class FrameStore {
  readonly #access: MediaAccess;
  readonly #budget: number;
  readonly #decodeStill: (item: FootageItem, data: Buffer, path: string) => Promise<Canvas>;
  readonly #timestamps = new TimestampCache();
  readonly #cache = new Map<string, { canvas: Canvas; generation: number }>();
  /**
   * Evicted canvases kept for the next frames: a 1080p canvas is 8 MB of native memory that the garbage collector
   * does not see, so dropping one per frame lets memory pile up between collections.
   */
  readonly #spare: Canvas[] = [];
  /** Frames being prepared or drawn (see hold), and a count of frames begun. */
  #holds = 0;
  #generation = 0;
  #bytes = 0;
  readonly #running = new Map<string, Running[]>();
  #reads = 0;
  /**
   * Per decoder key: the block read backwards, and the last two frame indices asked (to tell a reader going
   * back from two copies of a clip read forward a few frames apart).
   */
  readonly #blocks = new Map<string, BackBlock>();
  readonly #asked = new Map<string, number[]>();
  /**
   * Files whose seeks gave no frame (a container whose seeks seek-plan.ts cannot place, damaged timestamps). They
   * are read from their start.
   */
  readonly #unseekable = new Set<string>();
  /**
   * Files whose decoding ended before the frame count probed (a damaged or cut tail): their last frame that
   * decodes, by path. A frame after it is that frame (held, as it would be anyway), found without a decoder:
   * otherwise each one past reach of a running decoder started one that sought past the end and found nothing.
   */
  readonly #ends = new Map<string, number>();
  /** Sound-only files found there (readable), by path. */
  readonly #readable = new Set<string>();
  /** Files checked against their items (footage-unchanged.ts), by path: once per file and store. */
  readonly #checked = new Map<string, Promise<void>>();
  // One decode at a time per file: a decoder is a stream and cannot serve two frames at once.
  readonly #turns = new Map<string, Promise<unknown>>();
  /** Closed stores start no decoder (a stopping worker must not leave a new one behind). */
  #closed = false;
  readonly #scrub: ScrubCache | null;

  /** `scrubBytes` > 0 keeps a scrub cache of that size for frames asked with `scrub` (previews). */
  constructor(
    access: MediaAccess,
    budgetBytes: number,
    decodeStill: (item: FootageItem, data: Buffer, path: string) => Promise<Canvas>,
    scrubBytes = 0,
  ) {
    this.#access = access;
    this.#budget = budgetBytes;
    this.#decodeStill = decodeStill;
    this.#scrub = scrubBytes > 0 ? new ScrubCache(scrubBytes) : null;
  }

  /**
   * Marks a frame in progress, until the returned release is called after it is drawn: canvases it may use are
   * never reused meanwhile.
   */
  hold(): () => void {
    this.#holds++;
    this.#generation++;
    this.#scrub?.nextFrame();
    this.#endIdle();
    let released = false;
    return () => {
      if (!released) this.#holds--;
      released = true;
    };
  }

  /** Ends the decoders no frame has read from lately (IDLE_DECODER_FRAMES), but for a file being decoded now. */
  #endIdle(): void {
    for (const [key, runs] of this.#running) {
      if (this.#turns.has(key)) continue;
      for (const run of runs.filter((r) => this.#generation - r.frame > IDLE_DECODER_FRAMES))
        this.#endRun(key, run);
    }
  }

  /** Ends one decoder of `key` and forgets it (the file's list too, when it was the last). */
  #endRun(key: string, run: Running): void {
    run.decoder.close();
    const runs = this.#running.get(key);
    if (!runs) return;
    const at = runs.indexOf(run);
    if (at >= 0) runs.splice(at, 1);
    if (!runs.length) this.#running.delete(key);
  }

  /** Ends least recently read decoders until one more fits under MAX_DECODERS (see there); `key`'s may go too. */
  #makeRoom(key: string): void {
    let count = 0;
    for (const runs of this.#running.values()) count += runs.length;
    while (count >= MAX_DECODERS) {
      let oldest: { run: Running; key: string } | null = null;
      for (const [k, runs] of this.#running) {
        // Another file being decoded now, or a decoder the frame in progress or the one before read: not to be
        // taken away (a grid of more clips than the cap, one entering, would otherwise re-seek every other clip
        // not yet read in that frame, each closing the next).
        if (k !== key && this.#turns.has(k)) continue;
        for (const run of runs)
          if (run.frame < this.#generation - 1 && (!oldest || run.used < oldest.run.used))
            oldest = { run, key: k };
      }
      if (!oldest) return;
      this.#endRun(oldest.key, oldest.run);
      count--;
    }
  }

  /**
   * The last frame of `item` that decodes, once a decoder has met the end of its file before the frame count
   * probed (a short last GOP, or a damaged or cut tail); undefined until then, or when the file is whole.
   */
  decodedEnd(item: FootageItem): number | undefined {
    return this.#ends.get(item.path);
  }

  /**
   * Rejects as a frame of `item` would when its file cannot be opened (missing: no_such_file; outside the roots):
   * for sound-only footage, which previews never decode, so that they can say it is gone.
   */
  async readable(item: FootageItem): Promise<void> {
    // Once there, it is not asked again each frame: a file deleted or replaced since changes its stamp, and the
    // preview client then starts a fresh worker (footage-stamps.ts), whose store asks again.
    if (this.#readable.has(item.path)) return;
    await this.#open(item);
    this.#readable.add(item.path);
  }

  /** Frame times of `item` in seconds from its first frame, ascending. */
  async timestamps(item: FootageItem): Promise<ArrayLike<number>> {
    if (item.media?.kind !== 'video' || !item.media.variableFrameRate)
      return this.#timestamps.timestamps(item, null, '');
    const input = await this.#open(item);
    return this.#timestamps.timestamps(item, this.#access.ffprobe, input);
  }

  /**
   * Frame `index` of `item` as a canvas (kept in the byte-bounded cache). With `scrub` (previews), a frame that
   * would need a seek may come from the scrub cache: the same frame, JPEG-compressed.
   */
  async frame(item: FootageItem, index: number, scrub = false): Promise<Canvas> {
    const key = `${item.path}#${index}`;
    const hit = this.#cache.get(key);
    if (hit) {
      this.#cache.delete(key);
      this.#cache.set(key, { canvas: hit.canvas, generation: this.#generation });
      return hit.canvas;
    }
    const canvas = await this.#inTurn(runKey(item, 'rgba'), () => this.#decode(item, index, scrub));
    this.#insert(key, canvas);
    return canvas;
  }

  /** Runs `work` after every earlier turn of `key` has ended (one decode at a time per decoder). */
  async #inTurn<T>(key: string, work: () => Promise<T>): Promise<T> {
    const before = this.#turns.get(key) ?? Promise.resolve();
    const turn = before.catch(() => undefined).then(work);
    this.#turns.set(key, turn);
    try {
      return await turn;
    } finally {
      if (this.#turns.get(key) === turn) this.#turns.delete(key);
    }
  }

  async #decode(item: FootageItem, index: number, scrub: boolean): Promise<Canvas> {
    if (item.media?.kind === 'sequence') {
      const seq = item.media.sequence!;
      const path = sequenceFrame(seq.pattern, seq.first + index);
      const data = await this.#access.readFile(path).catch((err: unknown) => {
        if (err instanceof EngineError && err.code !== 'io_error' && err.code !== 'no_such_file') throw err;
        throw missingFootage(item, path);
      });
      return this.#decodeStill(item, data, path);
    }
    if (scrub && this.#scrub && !item.media?.alpha && this.#scrubs(this.#scrub, item, index)) {
      const kept = await this.#scrubFrame(this.#scrub, item, index);
      if (kept) return kept;
    }
    // The buffer stays the decoder's last frame until the next is read, then goes back to the decoder.
    const rgba = await this.#videoFrame(item, index);
    return canvasOf(rgba, item.width, item.height, this.#spare.pop());
  }

  /**
   * Frame `index` of `item` as the clip stores it (I420 or its full-range twin; see yuvPlate), for a footage
   * plate: not cached (a render reads on), and valid only until the next I420 frame of this item is asked.
   * Its own decoder, beside the RGBA one if other layers show the clip too.
   */
  i420(item: FootageItem, index: number): Promise<Buffer> {
    return this.#inTurn(runKey(item, 'i420'), () => this.#videoFrame(item, index, 'i420'));
  }

  /**
   * Frames a decoder must decode to give frame `index`: 0 when one holds it already (a back block, or a run's
   * last frame), the frames up to it when a run reaches it by reading on, Infinity when it needs a new (seeking)
   * decoder.
   */
  #readOnCost(item: FootageItem, index: number): number {
    const block = this.#blocks.get(runKey(item, 'rgba'));
    if (block && index >= block.first && index < block.first + block.frames.length) return 0;
    const run = reaching(this.#running.get(runKey(item, 'rgba')) ?? [], index);
    if (!run) return Infinity;
    return run.last !== null && run.next - 1 === index ? 0 : index - run.next + 1;
  }

  /**
   * Whether a preview takes frame `index` from the scrub cache: always where a decoder would have to seek, and
   * where reading on would decode more frames than a kept JPEG costs (a decoder left a few frames behind by a
   * jump forward read on through up to MAX_FORWARD_FRAMES of them, 100-300 ms, with the frame kept as a JPEG).
   */
  #scrubs(cache: ScrubCache, item: FootageItem, index: number): boolean {
    const cost = this.#readOnCost(item, index);
    return cost === Infinity || (cost > SCRUB_READ_ON && cache.keeps(scrubKey(item), index));
  }

  /**
   * The frame from the scrub cache (kept, or from its run); null when the cache cannot give it (the caller
   * decodes it, and reports why). JPEG has no alpha: footage with alpha never comes here.
   */
  async #scrubFrame(cache: ScrubCache, item: FootageItem, index: number): Promise<Canvas | null> {
    const key = scrubKey(item);
    const count = (await this.timestamps(item)).length;
    const jpeg = await cache.frame(key, Math.min(index, count - 1), count, (at) =>
      this.#spawnScrub(item, at),
    );
    if (!jpeg) return null;
    // A JPEG that does not decode, or not to the item's size, falls back to the exact decoder: a preview never
    // fails for the cache's sake.
    const spare = this.#spare.pop();
    const canvas = await jpegCanvas(jpeg, item.width, item.height, spare).catch(() => null);
    // A JPEG that is refused leaves the spare canvas unused: it stays spare.
    if (!canvas && spare) this.#spare.push(spare);
    return canvas;
  }

  async #spawnScrub(item: FootageItem, index: number): Promise<Spawned> {
    // Its frames would be numbered from `index` where they start at 0: the exact decoder reads such a file.
    const unseekable = () =>
      new EngineError('unsupported_format', 'Seeking gives no frame in this file.', 'Read it in order.');
    if (this.#unseekable.has(item.path) && index > 0) throw unseekable();
    const { spec, at, unchanged } = await this.#spec(item, index);
    // Found unseekable by #spec itself (packets partly without times): the run would start at 0, not `index`.
    if (at === 0 && index > 0 && this.#unseekable.has(item.path)) {
      unchanged.catch(() => undefined);
      throw unseekable();
    }
    if (this.#closed) throw closedError();
    // The file's header check (an ffprobe, ~80 ms, on a renderer's first decoder of the file) runs while the
    // run starts instead of before it: a first preview took that much longer. The cache keeps none of the run's
    // frames until the check has passed, and stops the run if it fails.
    const child = spawnDecoder(spec, item.media!.pixelAspect === 1, 'mjpeg');
    return { child, ready: unchanged };
  }

  async #videoFrame(item: FootageItem, wanted: number, output: 'rgba' | 'i420' = 'rgba'): Promise<Buffer> {
    const end = this.#ends.get(item.path);
    const index = end !== undefined ? Math.min(wanted, end) : wanted;
    const key = runKey(item, output);
    const asked = this.#asked.get(key) ?? [];
    this.#asked.set(key, [asked.at(-1) ?? index, index]);
    const block = this.#blocks.get(key);
    if (block && index >= block.first && index < block.first + block.frames.length)
      return block.frames[index - block.first]!;
    const runs = this.#running.get(key) ?? [];
    let run = reaching(runs, index);
    // Going back: before both frames asked last (frame blending's pair included), and close to them.
    const last = asked.at(-1);
    const back = last !== undefined && asked.every((a) => index < a) && last - index <= MAX_BACK_STEP;
    if (!run && back) return this.#readBack(item, index, Math.max(...asked), output);
    if (!run) {
      // A new seeking decoder; the least recently read one goes when the file has its share.
      if (runs.length >= MAX_RUNS_PER_FILE) {
        this.#endRun(
          key,
          runs.reduce((a, b) => (a.used <= b.used ? a : b)),
        );
      }
      this.#makeRoom(key);
      run = await this.#start(item, index, output);
      runs.push(run);
      this.#running.set(key, runs);
    }
    run.used = ++this.#reads;
    run.frame = this.#generation;
    let frame: Buffer | null = null;
    while (run.next <= index) {
      const next = await run.decoder.next();
      // Fewer frames than probed (a short last GOP, a damaged tail): the last one holds.
      if (!next) {
        if (run.last) this.#ends.set(item.path, run.next - 1);
        break;
      }
      // Frames read through on the way to the wanted one go back to the decoder at once.
      if (run.last) run.decoder.recycle(run.last);
      run.last = next;
      run.next++;
      if (run.next > index) frame = next;
    }
    frame ??= run.last;
    if (!frame && run.from > 0 && !this.#unseekable.has(item.path)) {
      this.#unseekable.add(item.path);
      this.#endRun(key, run);
      const found = await this.#videoFrame(item, index, output);
      // Read from the start, the file ended before the frame: the seek found nothing because nothing is there,
      // not because the file cannot seek.
      const ended = this.#ends.get(item.path);
      if (ended !== undefined && ended < index) this.#unseekable.delete(item.path);
      return found;
    }
    if (!frame) throw run.decoder.failure(item.path);
    return frame;
  }

  /**
   * Frame `index`, for footage read backwards: the block of frames up to it is decoded by one seeking decoder
   * and kept, so the frames before it come from the block; only the block's first frame is sought (decoding
   * on from the key frame before it, as any seek does). The block reaches up to `asked`, the frame asked
   * before: frame blending asks a pair a frame (the one it steps back to, and the one above it).
   */
  async #readBack(item: FootageItem, index: number, asked: number, output: 'rgba' | 'i420'): Promise<Buffer> {
    const key = runKey(item, output);
    // The block before is spent, and decoders ahead of the frame cannot serve a reader going back (the one
    // that read a reversed clip's first frame): their memory goes first.
    for (const run of (this.#running.get(key) ?? []).filter((r) => r.next > index)) this.#endRun(key, run);
    this.#blocks.delete(key);
    // Clips read backwards at once share the bytes: the others' blocks are trimmed to their share first.
    const share = BACK_BLOCK_BYTES / (this.#blocks.size + 1);
    this.#trimBlocks(share);
    const frameBytes = item.width * item.height * (output === 'i420' ? 1.5 : 4);
    const count = Math.max(2, Math.min(MAX_BACK_BLOCK_FRAMES, Math.floor(share / frameBytes)));
    const top = Math.min(asked, index + count - 1);
    const from = Math.max(0, top - count + 1);
    const run = await this.#start(item, from, output);
    const frames: Buffer[] = [];
    let first = run.next;
    try {
      // A file read from its start (its seeks give nothing) reads through the frames before the block.
      while (run.next < from) {
        const next = await run.decoder.next();
        if (!next) break;
        run.decoder.recycle(next);
        run.next++;
      }
      first = run.next;
      while (run.next <= top) {
        const next = await run.decoder.next();
        // Fewer frames than probed (a short last GOP, a damaged tail): the last one holds.
        if (!next) break;
        frames.push(next);
        run.next++;
      }
    } finally {
      run.decoder.close();
    }
    if (!frames.length && run.from > 0 && !this.#unseekable.has(item.path)) {
      this.#unseekable.add(item.path);
      return this.#readBack(item, index, asked, output);
    }
    if (!frames.length) throw run.decoder.failure(item.path);
    this.#blocks.set(key, { first, frames, frameBytes });
    return frames[Math.min(index - first, frames.length - 1)]!;
  }

  /**
   * Trims every block to at most `bytes`, keeping the frames read next: those at and just below where its
   * clip was last asked (frames above it were shown already).
   */
  #trimBlocks(bytes: number): void {
    for (const [key, block] of this.#blocks) {
      const keep = Math.max(1, Math.floor(bytes / block.frameBytes));
      const last = block.first + block.frames.length - 1;
      const asked = this.#asked.get(key);
      const top = Math.max(block.first, Math.min(last, asked ? Math.max(...asked) : last));
      const from = Math.max(block.first, top - keep + 1);
      block.frames = block.frames.slice(from - block.first, top - block.first + 1);
      block.first = from;
    }
  }

  /** What a decoder starting at frame `index` is told, and the frame it yields first. */
  async #spec(
    item: FootageItem,
    index: number,
  ): Promise<{ spec: DecoderSpec; at: number; unchanged: Promise<void> }> {
    const ffmpeg = this.#access.ffmpeg;
    if (!ffmpeg) throw missingFfmpegForFootage(item);
    if (this.#closed) throw closedError();
    const input = await this.#open(item);
    // Checked while the decoder starts (its ffprobe takes tens of milliseconds); awaited before a frame is read.
    const unchanged = this.#unchanged(item, input);
    unchanged.catch(() => undefined);
    const ts = await this.timestamps(item);
    let at = this.#unseekable.has(item.path) ? 0 : Math.min(index, ts.length - 1);
    const keyframes = at > 0 ? await this.#keyframes(item, input) : null;
    // Packets partly without times: no seek lands exactly, so the decoder reads from the start (frames counted).
    if (keyframes === 'untimed') {
      this.#unseekable.add(item.path);
      at = 0;
    }
    const media = item.media!;
    const plan = seekPlan(ts, at, media.pictureStart ?? 0, keyframes === 'untimed' ? null : keyframes);
    const untagged = untaggedMatrix(item);
    const spec: DecoderSpec = {
      ffmpeg,
      input,
      width: item.width,
      height: item.height,
      seek: plan.seek,
      ...(plan.trim !== undefined && { trim: plan.trim }),
      codec: media.codec,
      alpha: media.alpha,
      ...(untagged ? { untaggedMatrix: untagged } : {}),
      onChild: this.#access.onChild,
    };
    return { spec, at, unchanged };
  }

  async #start(item: FootageItem, index: number, output: 'rgba' | 'i420'): Promise<Running> {
    const { spec, at, unchanged } = await this.#spec(item, index);
    if (output === 'i420') spec.planar = item.media?.yuv?.pixelFormat === 'yuvj420p' ? 'yuvj420p' : 'yuv420p';
    const decoder = await VideoDecoder.start(spec, item.media!.pixelAspect === 1, output);
    try {
      await unchanged;
      // Closed while it started (a stopped job): the store no longer ends its decoders, so this one ends here.
      if (this.#closed) throw closedError();
    } catch (err) {
      decoder.close();
      throw err;
    }
    const from = Math.max(0, at);
    return { decoder, next: from, last: null, used: 0, frame: this.#generation, from };
  }

  /**
   * The key frame times of a clip in a container without an index (seek-plan.ts), null for the others. Without
   * ffprobe, or when it fails, none: such a clip is then read from its start, slower but never a wrong frame.
   * 'untimed': only some of its packets carry a time (timestamps.ts, parseKeyframeTimes).
   */
  async #keyframes(item: FootageItem, input: string): Promise<ArrayLike<number> | 'untimed' | null> {
    if (!seeksWithoutIndex(item)) return null;
    const ffprobe = this.#access.ffprobe;
    if (!ffprobe) return [];
    return this.#timestamps.keyframes(item, ffprobe, input).then(
      (keys) => keys ?? ('untimed' as const),
      () => [],
    );
  }

  /** Rejects when the file is no longer what the item recorded; asked once per file (a failure is asked again). */
  #unchanged(item: FootageItem, input: string): Promise<void> {
    const ffprobe = this.#access.ffprobe;
    if (!ffprobe || item.media?.kind !== 'video' || this.#access.checked) return Promise.resolve();
    let check = this.#checked.get(item.path);
    if (!check) {
      check = checkUnchanged(ffprobe, input, item);
      check.catch(() => this.#checked.delete(item.path));
      this.#checked.set(item.path, check);
    }
    return check;
  }

  #open(item: FootageItem): Promise<string> {
    return this.#access.open(item.path).catch((err: unknown) => {
      if (
        err instanceof EngineError &&
        (err.code === 'path_outside_roots' || err.code === 'refused_while_confined')
      )
        throw err;
      throw missingFootage(item);
    });
  }

  #insert(key: string, canvas: Canvas): void {
    if (this.#cache.has(key)) return;
    this.#cache.set(key, { canvas, generation: this.#generation });
    this.#bytes += canvas.width * canvas.height * 4;
    for (const [k, e] of this.#cache) {
      if (this.#bytes <= this.#budget) break;
      // What the frame being drawn has asked for stays, whatever the budget: frame blending's pair, layers
      // sharing a clip, slow motion asking for the same frame again at the next frame. Only earlier frames'
      // go, so a budget smaller than a frame keeps exactly the frame in progress.
      if (e.generation === this.#generation) continue;
      this.#cache.delete(k);
      this.#bytes -= e.canvas.width * e.canvas.height * 4;
      // Reusable only when no frame in progress can hold it: only the current frame is in progress.
      if (this.#holds <= 1 && this.#spare.length < MAX_SPARE) this.#spare.push(e.canvas);
    }
  }

  /** Ends every decoder and drops the cache; the store starts no decoder afterwards. */
  close(): void {
    this.#closed = true;
    this.#scrub?.close();
    for (const runs of this.#running.values()) for (const run of runs) run.decoder.close();
    this.#running.clear();
    this.#blocks.clear();
    this.#asked.clear();
    this.#checked.clear();
    this.#readable.clear();
    this.#ends.clear();
    this.#cache.clear();
    this.#spare.length = 0;
    this.#bytes = 0;
  }
}
