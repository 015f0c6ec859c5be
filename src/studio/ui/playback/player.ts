/**
 * Decides what the viewer shows. Stopped: the frame at the playhead of the current revision, fetched when any
 * of (revision, composition, frame, scale, transparency) changes; fetches coalesce so a scrub never queues.
 * Playing: a real-time clock picks the frame; it is painted only when it is cached (frames missing in time are
 * dropped, never waited for) while a few requests fetch the frames ahead. The fps actually reached is
 * published in the store (and so as data-fps on the transport). The composition's sound plays along from the
 * same clock (sound.ts).
 */
import { coalesced } from '../live/coalesce.js';
import { WARNED_FRAME_MS, frameKey, type Frame, type FrameRequest } from '../live/frames.js';
import { toErrorBody } from '../live/rpc-error.js';
import { activeComp, frameCount } from '../state/doc.js';
import type { StudioState } from '../state/studio-state.js';
import type { Studio } from '../studio.js';
import { SoundPlayback, type SoundClock } from './sound.js';
import { ViewerOutput } from './viewer-output.js';

/** Frame requests in flight at once while playing (the app renders on a worker thread; more would queue). */
const PREFETCH_IN_FLIGHT = 3;
/** How far ahead of the playhead prefetching may reach, in seconds. */
const PREFETCH_SECONDS = 1.5;

interface Wanted {
  revision: number;
  request: FrameRequest;
}

export class Player {
  readonly output = new ViewerOutput();
  readonly sound: SoundPlayback;
  readonly #studio: Studio;
  /** The revision and composition the playing sound was asked for: an edit or a switch asks again. */
  #heard = { revision: -1, comp: '' };
  #raf = 0;
  #clock = { startedAt: 0, startFrame: 0 };
  #paintTimes: number[] = [];
  #fpsTimer = 0;
  #lastStillKey = '';
  #lastError = '';

  constructor(studio: Studio) {
    this.#studio = studio;
    this.sound = new SoundPlayback(studio);
    studio.store.subscribe((state) => this.#onState(state));
  }

  get playing(): boolean {
    return this.#studio.store.state.playing;
  }

  toggle(): void {
    if (this.playing) this.pause();
    else this.play();
  }

  play(): void {
    const s = this.#studio.store.state;
    const comp = activeComp(s.doc);
    if (s.playing || !comp) return;
    const [start, end] = this.#range(s);
    // Start from the work area's start when the playhead is past its end, as After Effects does.
    const startFrame = s.frame >= end ? start : s.frame;
    this.#clock = { startedAt: performance.now(), startFrame };
    this.#paintTimes = [];
    // Before the store says playing: its subscribers (#followSound) must see this sound as asked for already.
    this.#heard = { revision: s.revision, comp: comp.id };
    this.#studio.store.update({ playing: true, frame: startFrame });
    this.#raf = requestAnimationFrame((t) => this.#tick(t));
    this.#fpsTimer = window.setInterval(() => this.#publishFps(), 250);
    this.sound.start(this.#soundClock(this.#studio.store.state));
  }

  pause(): void {
    if (!this.playing) return;
    cancelAnimationFrame(this.#raf);
    clearInterval(this.#fpsTimer);
    this.sound.stop();
    // The still view must fetch the playhead's frame again: playback may have shown another one last.
    this.#lastStillKey = '';
    this.#studio.store.update({ playing: false, fpsReached: 0 });
  }

  /**
   * Footage went missing or came back with no edit: the frames drawn from it are stale. Every cached frame is
   * dropped and the still view asks for its frame again (playback asks as it goes).
   */
  filesChanged(): void {
    this.#studio.frames.cache.clear();
    this.#lastStillKey = '';
    if (!this.playing) void this.#refreshStill();
  }

  /** The frames playback loops over: the work area, or the whole composition. */
  #range(s: StudioState): [number, number] {
    const comp = activeComp(s.doc);
    if (!comp) return [0, 0];
    const last = frameCount(comp) - 1;
    if (!s.workArea) return [0, last];
    return [Math.min(s.workArea.start, last), Math.min(s.workArea.end, last)];
  }

  #wanted(s: StudioState, frame = s.frame): Wanted | null {
    const comp = activeComp(s.doc);
    if (!comp) return null;
    return {
      revision: s.revision,
      request: { comp: comp.id, frame, scale: s.renderScale, transparent: s.transparencyGrid },
    };
  }

  /** The clock the sound follows: the frames' clock in seconds (not floored to frames), within the loop. */
  #soundClock(s: StudioState): SoundClock {
    const comp = activeComp(s.doc)!;
    const [start, end] = this.#range(s);
    const fps = comp.frameRate;
    const length = (end - start + 1) / fps;
    return {
      comp: comp.id,
      loop: [start / fps, (end + 1) / fps],
      position: () => {
        const t = (this.#clock.startFrame - start) / fps + (performance.now() - this.#clock.startedAt) / 1000;
        return start / fps + (((t % length) + length) % length);
      },
    };
  }

  #onState(s: StudioState): void {
    if (s.playing) return this.#followSound(s);
    const wanted = this.#wanted(s);
    const key = wanted ? frameKey(wanted.revision, wanted.request) : '';
    if (key === this.#lastStillKey) return;
    this.#lastStillKey = key;
    void this.#refreshStill();
  }

  /** While playing: another composition restarts the sound from the clock; an edit asks for the mix again. */
  #followSound(s: StudioState): void {
    const comp = activeComp(s.doc);
    if (!comp || (comp.id === this.#heard.comp && s.revision === this.#heard.revision)) return;
    const switched = comp.id !== this.#heard.comp;
    this.#heard = { revision: s.revision, comp: comp.id };
    if (switched) this.sound.start(this.#soundClock(s));
    else this.sound.refresh();
  }

  readonly #refreshStill = coalesced(async () => {
    const wanted = this.#wanted(this.#studio.store.state);
    if (!wanted) return;
    try {
      const frame = await this.#studio.frames.load(wanted.revision, wanted.request);
      this.#lastError = '';
      this.#paint(frame);
      if (frame.warnings.length) this.#recheckSoon();
    } catch (error) {
      this.#report(error);
    }
  });

  #recheck: ReturnType<typeof setTimeout> | null = null;

  /**
   * A still shown with warnings (footage that could not be read) is asked for again in a moment, while nobody
   * plays: a file put back changes nothing in the document, so no edit would bring the frame back.
   */
  #recheckSoon(): void {
    if (this.#recheck) return;
    this.#recheck = setTimeout(() => {
      this.#recheck = null;
      if (!this.#studio.store.state.playing) void this.#refreshStill();
    }, WARNED_FRAME_MS + 100);
  }

  #tick(now: number): void {
    const s = this.#studio.store.state;
    const comp = activeComp(s.doc);
    if (!s.playing || !comp) return this.pause();
    const [start, end] = this.#range(s);
    const length = end - start + 1;
    const elapsed = Math.floor(((now - this.#clock.startedAt) / 1000) * comp.frameRate);
    const frame = start + ((((this.#clock.startFrame - start + elapsed) % length) + length) % length);
    const wanted = this.#wanted(s, frame)!;
    const cached = this.#studio.frames.cache.get(frameKey(wanted.revision, wanted.request));
    if (cached && s.painted?.frame !== frame) this.#paint(cached);
    if (s.frame !== frame) this.#studio.store.update({ frame });
    this.#prefetch(s, frame, start, length, comp.frameRate);
    this.#raf = requestAnimationFrame((t) => this.#tick(t));
  }

  /** Asks for the first frames ahead that are neither cached nor loading, starting as far ahead as a fetch takes. */
  #prefetch(s: StudioState, frame: number, start: number, length: number, fps: number): void {
    const frames = this.#studio.frames;
    const lead = Math.ceil((frames.averageFetchMs / 1000) * fps) + 1;
    const reach = Math.min(length, Math.ceil(PREFETCH_SECONDS * fps));
    for (let ahead = lead; ahead < lead + reach && frames.inFlight < PREFETCH_IN_FLIGHT; ahead++) {
      const f = start + ((frame - start + ahead) % length);
      const w = this.#wanted(s, f)!;
      if (frames.cache.has(frameKey(w.revision, w.request)) || frames.isLoading(w.revision, w.request))
        continue;
      frames.load(w.revision, w.request).catch((error: unknown) => this.#report(error));
    }
  }

  #paint(frame: Frame): void {
    const s = this.#studio.store.state;
    if (frame.comp !== activeComp(s.doc)?.id) return;
    this.output.paint(frame);
    if (s.playing) this.#paintTimes.push(performance.now());
    this.#studio.store.update({
      painted: { revision: frame.revision, frame: frame.frame, scale: frame.scale, warnings: frame.warnings },
    });
  }

  #publishFps(): void {
    const cutoff = performance.now() - 1000;
    this.#paintTimes = this.#paintTimes.filter((t) => t >= cutoff);
    this.#studio.store.update({ fpsReached: this.#paintTimes.length });
  }

  /** A failing frame is reported once, not once per attempt. */
  #report(error: unknown): void {
    const body = toErrorBody(error);
    const key = `${body.code}:${body.message}`;
    if (key === this.#lastError) return;
    this.#lastError = key;
    this.#studio.toast(body);
  }
}
