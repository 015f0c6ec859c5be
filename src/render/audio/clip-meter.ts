/**
 * Whether a render's mix goes above full scale. Layers are summed without normalisation (graph.ts), as After
 * Effects sums them, so two loud layers, or a hot 5.1 file folded to stereo, can pass 0 dBFS: the file then
 * holds clipped samples (a WAV or MP3 clips them; AAC and Opus decoders do at playback), heard as distortion,
 * and nothing in the result would say so to an agent that cannot listen. The mix's ffmpeg measures its own
 * output (a branch of the graph: astats per audio frame, only frames above 0 dBFS printed, on a pipe of its own:
 * graph.ts METER) and the item's result carries a warning with the peak and where it is.
 */

/** Seconds of each frame the meter measures (graph.ts cuts the mix into them): how finely it places clipping. */
export const METER_FRAME = 0.02;

/**
 * A frame whose peak stays at or below this is silence: 16-bit PCM's smallest step is -90.3 dBFS, so such a
 * mix is written as zeros. The meter prints every frame above it (graph.ts METER), so a mix of sound layers
 * that prints nothing at all was silence from end to end: a silent recording, or levels near -96 dB.
 */
export const SILENCE_DB = -90;

/** The printed key (ametadata's `key=value` lines) and the frame lines (`frame:N pts:P pts_time:T`). */
const PEAK = 'lavfi.astats.Overall.Peak_level=';
const TIME = /pts_time:\s*(-?[\d.]+)/;

export class ClipMeter {
  #rest = '';
  #time = 0;
  #peak = -Infinity;
  #first: number | null = null;
  #last = 0;
  #heard = false;

  /** Takes what the meter's pipe gives, in any chunks. */
  feed(chunk: Buffer | string): void {
    const lines = (this.#rest + chunk.toString()).split('\n');
    this.#rest = lines.pop() ?? '';
    for (const line of lines) {
      const time = TIME.exec(line);
      if (time) this.#time = Number(time[1]);
      if (!line.startsWith(PEAK)) continue;
      const db = Number(line.slice(PEAK.length));
      if (db > SILENCE_DB) this.#heard = true;
      if (!(db > 0)) continue;
      this.#peak = Math.max(this.#peak, db);
      this.#first ??= this.#time;
      // A frame's time is its start: the clipping runs to its end.
      this.#last = this.#time + METER_FRAME;
    }
  }

  /** Whether any frame of the mix was louder than silence (SILENCE_DB); false until the meter has heard one. */
  get heard(): boolean {
    return this.#heard;
  }

  /** The highest peak above full scale (dBFS) and the span of the output where the mix clips; null if none. */
  get clipping(): { peakDb: number; from: number; to: number } | null {
    return this.#first === null ? null : { peakDb: this.#peak, from: this.#first, to: this.#last };
  }

  /** The warning for the item's result, or null when the mix stays at or below 0 dBFS. */
  /**
   * `float`: the output keeps samples above full scale (32-bit float PCM), so nothing clips in the file itself;
   * it still does wherever the file is played or converted to integer PCM or a lossy codec.
   */
  warning(float = false): string | null {
    const c = this.clipping;
    if (!c) return null;
    const where =
      c.to - c.from < 0.05
        ? `at ${c.from.toFixed(2)} s`
        : `from ${c.from.toFixed(2)} s to ${c.to.toFixed(2)} s`;
    // Rounded up to a tenth of a dB: lowering by the figure shown must be enough.
    const over = Math.ceil(c.peakDb * 10) / 10;
    const harm = float
      ? 'this 32-bit float file keeps it as it is, but it clips wherever the file is played or converted to ' +
        'integer PCM, MP3, AAC or Opus, heard as distortion.'
      : 'a WAV or MP3 clips it there and AAC or Opus mangles it, heard as distortion either way.';
    return (
      `The sound's mix goes above full scale (peak +${over.toFixed(1)} dBFS) ${where} of the output: ${harm} Lower the loud layers' ` +
      `audio.level (in dB) by ${over.toFixed(1)} dB or more ` +
      'where they play together, and render again.'
    );
  }
}
