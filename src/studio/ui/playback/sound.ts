/**
 * The transport's sound: the active composition's whole mix (GET SOUND_PATH, a WAV the app mixes as a render
 * does), decoded once into an AudioBuffer and played with Web Audio from the playhead's time, looping over the
 * same range as the frames. The player's clock drives both: sound starts at the clock's position when its mix
 * is ready (the frames do not wait for it). After an edit the mix is asked for again with its ETag; only a
 * changed sound is fetched and swapped in, so editing a title while playing does not stutter the sound.
 */
import { SOUND_PATH, SOUND_WARNINGS_HEADER } from '../../protocol.js';
import { errorOf } from '../live/frames.js';
import { RpcError, toErrorBody } from '../live/rpc-error.js';
import type { SoundState } from '../state/studio-state.js';
import type { Studio } from '../studio.js';

/** Where the playing sound is: seconds into the composition now, and the loop it wraps within. */
export interface SoundClock {
  comp: string;
  /** Seconds into the composition at this moment (the player's clock). */
  position(): number;
  /** [start, end) in seconds: the work area, or the whole composition. */
  loop: [number, number];
}

interface Mix {
  comp: string;
  etag: string;
  audio: AudioBuffer | null;
}

/** Where the person's choice (sound on or off) is kept between visits. */
export const SOUND_SETTING_KEY = 'effectcraft.studio.sound';

/** The person's last choice: on unless they turned it off. */
export function soundSetting(): boolean {
  try {
    return localStorage.getItem(SOUND_SETTING_KEY) !== 'off';
  } catch {
    return true;
  }
}

export class SoundPlayback {
  readonly #studio: Studio;
  #context: AudioContext | null = null;
  #mix: Mix | null = null;
  #source: AudioBufferSourceNode | null = null;
  /** When the source started: the context's time and the composition's. */
  #started = { at: 0, offset: 0 };
  #clock: SoundClock | null = null;
  /** Bumped by every start and stop: a mix that arrives for an older one is not played. */
  #turn = 0;

  constructor(studio: Studio) {
    this.#studio = studio;
  }

  /** Plays the composition's sound along with `clock`; replaces any sound playing. */
  start(clock: SoundClock): void {
    this.#halt();
    this.#clock = clock;
    if (!this.#studio.store.state.soundOn) return this.#set('off');
    // Made (or resumed) inside the click that plays: browsers let a page sound only after a gesture.
    this.#context ??= new AudioContext();
    void this.#context.resume();
    void this.#play(++this.#turn, clock, false);
  }

  /** Asks the app for the mix again (after an edit): swaps it in, at the clock's position, only if it changed. */
  refresh(): void {
    if (!this.#clock || !this.#studio.store.state.soundOn) return;
    void this.#play(++this.#turn, this.#clock, true);
  }

  stop(): void {
    this.#halt();
    this.#clock = null;
    const s = this.#studio.store.state.sound;
    if (s === 'playing' || s === 'loading') this.#set('stopped');
  }

  /** Turns the sound on or off (kept for the next visit); a playing transport starts or stops its sound. */
  setOn(on: boolean): void {
    this.#studio.store.update({ soundOn: on });
    try {
      localStorage.setItem(SOUND_SETTING_KEY, on ? 'on' : 'off');
    } catch {
      // Storage refused (a private window): the choice lasts for this page only.
    }
    const clock = this.#clock;
    if (!clock) return this.#set(on ? 'stopped' : 'off');
    if (on) this.start(clock);
    else {
      this.#halt();
      this.#set('off');
    }
  }

  /** Seconds into the composition the sound plays now, or null when none plays. */
  get time(): number | null {
    if (!this.#source || !this.#context || !this.#clock) return null;
    const [start, end] = this.#clock.loop;
    const t = this.#started.offset + (this.#context.currentTime - this.#started.at);
    return start + ((((t - start) % (end - start)) + (end - start)) % (end - start));
  }

  /** Stops the sound, and any mix still on its way from starting. */
  #halt(): void {
    this.#turn++;
    this.#stopSource();
  }

  #stopSource(): void {
    this.#source?.stop();
    this.#source?.disconnect();
    this.#source = null;
  }

  async #play(turn: number, clock: SoundClock, onlyIfChanged: boolean): Promise<void> {
    const before = this.#mix;
    if (!onlyIfChanged) this.#set('loading');
    try {
      const mix = await this.#load(clock.comp);
      if (turn !== this.#turn) return;
      if (onlyIfChanged && mix === before && this.#source) return;
      this.#stopSource();
      if (!mix.audio) {
        this.#lastFailure = '';
        return this.#set('silent');
      }
      const context = this.#context!;
      const source = context.createBufferSource();
      source.buffer = mix.audio;
      source.loop = true;
      [source.loopStart, source.loopEnd] = clock.loop;
      source.connect(context.destination);
      const offset = clock.position();
      source.start(0, offset);
      this.#source = source;
      this.#started = { at: context.currentTime, offset };
      this.#set('playing');
      this.#lastFailure = '';
    } catch (error) {
      if (turn !== this.#turn) return;
      this.#set('failed');
      // Every edit while playing asks for the mix again: a refusal that has not changed (a composition too long
      // to play along) is told once, not once per edit.
      const body = toErrorBody(error);
      const key = `${body.code}:${body.message}`;
      if (key !== this.#lastFailure) this.#studio.toast(body);
      this.#lastFailure = key;
    }
  }

  #lastFailure = '';

  /** The composition's mix: the one kept when the app says it has not changed (304), else fetched and decoded. */
  async #load(comp: string): Promise<Mix> {
    const kept = this.#mix?.comp === comp ? this.#mix : null;
    const url = new URL(SOUND_PATH, location.href);
    url.searchParams.set('comp', comp);
    const res = await fetch(url, {
      cache: 'no-store',
      credentials: 'same-origin',
      headers: kept?.etag ? { 'if-none-match': kept.etag } : {},
    });
    if (res.status === 304 && kept) return kept;
    if (res.status === 204) return (this.#mix = { comp, etag: '', audio: null });
    if (!res.ok) throw new RpcError(await errorOf(res, "the composition's sound"));
    const audio = await this.#context!.decodeAudioData(await res.arrayBuffer());
    // Each with its own code: a missing file's no_such_file, a changed one's unsupported_format (until
    // 2026-12-07 every one said no_such_file, a file re-exported shorter included).
    for (const { code, message } of parseSoundWarnings(res.headers.get(SOUND_WARNINGS_HEADER)))
      this.#studio.toast({ code, message, remediation: 'Relink the footage to hear it.' });
    return (this.#mix = { comp, etag: res.headers.get('etag') ?? '', audio });
  }

  #set(sound: SoundState): void {
    if (this.#studio.store.state.sound !== sound) this.#studio.store.update({ sound });
  }
}

/** The sound's warnings header: a JSON list of {code, message} (studio/server/sound.ts). */
export function parseSoundWarnings(header: string | null): { code: string; message: string }[] {
  if (!header) return [];
  try {
    const list: unknown = JSON.parse(decodeURIComponent(header));
    if (!Array.isArray(list)) return [];
    return list.flatMap((w: unknown) => {
      const { code, message } = (w ?? {}) as { code?: unknown; message?: unknown };
      return typeof code === 'string' && typeof message === 'string' ? [{ code, message }] : [];
    });
  } catch {
    return [];
  }
}
