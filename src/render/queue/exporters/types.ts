/**
 * The exporter interface: how rendered frames become files. Built-in exporters cover image sequences and
 * ffmpeg-encoded video; a custom exporter implements `Exporter` and is registered for an output format with
 * `RenderQueueService.registerExporter` (see docs/exporters.md).
 */
import type { OutputFormat, RenderQueueItem } from '../../../engine/index.js';
import type { AudioMix } from '../../audio/clips.js';
import type { FramePayload } from '../../encode.js';
import type { FileTracker } from '../tracker.js';

/** One file an item wrote, with what a pipeline needs to check it without trusting the renderer. */
export interface OutputFile {
  path: string;
  bytes: number;
  sha256: string;
}

export interface ExporterContext {
  /** The queue item (its output template is absolute). */
  item: RenderQueueItem;
  /** Frames of the item in order (inclusive range). */
  frames: readonly number[];
  frameRate: number;
  /**
   * The size every frame will have (the composition at the item's scale), known before the first is drawn: an
   * encoder can be started with it while the workers load. writeFrame's `size` is the same.
   */
  frameSize: FrameSize;
  /**
   * Every file the exporter creates must go through this tracker (temporary beside the final name, O_EXCL |
   * O_NOFOLLOW, renamed on completion): on cancellation or failure exactly the tracked paths are removed.
   * Reach tracked files only through it (`TrackedFile.childPath` for a child process, `readPath` to read one
   * back): when confined, those go through a verified folder handle, never by path.
   */
  tracker: FileTracker;
  /** Absolute path of ffmpeg, or null when it is not installed (probed once per job). */
  ffmpeg: string | null;
  /**
   * Aborts when the job stops or the item leaves the queue. A loop over frames or files (a skipExisting
   * scan of a long sequence) checks it and throws, so renderQueue.stop does not wait for the loop to end.
   */
  signal: AbortSignal;
  /**
   * The item's sound, when its format carries sound and the item has not turned it off: the audible clips
   * of its composition over the item's frames (no clips: the composition is silent). null: no sound wanted.
   * Every clip's file was checked readable (and inside the roots when confined) before the exporter was made.
   */
  audio: AudioMix | null;
  /**
   * For an exporter that is given no frames (an audio-only item): how many of the item's frames its output
   * covers so far, for the item's progress.
   */
  progress(framesDone: number): void;
}

export interface FrameSize {
  width: number;
  height: number;
}

export interface Exporter {
  /** What each worker delivers per frame: encoded image bytes or straight-alpha RGBA. */
  readonly payload: FramePayload;
  /** true when writeFrame must be called in frame order (streaming encoders); the job reorders for it. */
  readonly ordered: boolean;
  /**
   * Called before rendering: frames that must not be rendered (e.g. they exist and skipExisting is on), or
   * 'all' to skip the whole item (a one-file output that exists): a set of every frame of a day-long
   * composition would be a table of millions of entries.
   */
  prepare(): Promise<ReadonlySet<number> | 'all'>;
  /**
   * Optional: work that needs no frame (a video's sound mix), run while the render workers start, once frames
   * are known to be written (after `prepare`). The job waits for it and for the workers before any frame.
   */
  begin?(): Promise<void>;
  /**
   * Writes one frame's data (payload form). Awaited: this is where backpressure comes from. Once it resolves the
   * exporter holds no reference to `data`: the job hands the buffer back to its worker for a later frame.
   */
  writeFrame(frame: number, data: Uint8Array, size: FrameSize): Promise<void>;
  /** Completes the output (renames temporaries) and reports every file this item wrote. */
  finish(): Promise<OutputFile[]>;
  /**
   * Optional: the files of the output that were there already and were skipped (`prepare`), by frame, so the
   * manifest of a resumed or skip-existing render lists the whole output, not only what this run wrote.
   */
  existing?(): ReadonlyMap<number, string>;
  /** Optional: what a completed output's reader should know that its files do not say (a mix that clipped). */
  warnings?(): string[];
  /** Stops any child process; the job then removes the tracked files. Must be safe to call at any time. */
  abort(): Promise<void>;
}

/** Creates an exporter for one queue item; throw EngineError (e.g. missing_dependency) to fail the item. */
export type ExporterFactory = (ctx: ExporterContext) => Exporter;

export type ExporterRegistry = Map<OutputFormat | string, ExporterFactory>;
