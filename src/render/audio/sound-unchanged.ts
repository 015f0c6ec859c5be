/**
 * Whether a file's sound is still the one its footage item recorded. The mix trusts the item: it places a
 * stream's samples by the recorded length and offset, and a file replaced by a shorter one (a voice-over
 * re-exported under the same name) or one without the stream would be mixed as silence and the render called
 * done. So every sound file of a render is probed again before its mix starts, as video files are
 * (media/footage-unchanged.ts: differenceOnDisk).
 */
import { EngineError, lowSampleRate, MIN_SAMPLE_RATE, type FootageItem } from '../../engine/core.js';
import { audioStreamsOf } from '../../engine/shown-footage.js';
import type { MediaProbe } from '../../engine/ports.js';
import { differenceOnDisk } from '../media/footage-unchanged.js';
import type { AudioMix } from './clips.js';

const REMEDY =
  'Put the file back as it was, or relink the footage to it (footage.relink) so that it is probed again.';

/** Lengths may differ this much between a quick look and a count (rounding, an estimate from the bit rate). */
const slack = (seconds: number) => Math.max(0.05, 0.01 * seconds);

/** What differs between the streams `item` recorded and those probed `now`, for the streams a mix plays; null: none. */
function difference(item: FootageItem, now: MediaProbe, streams: readonly number[]): string | null {
  const was = audioStreamsOf(item);
  const found = audioStreamsOf({ ...item, media: now.media });
  for (const s of streams) {
    const then = was[s];
    const got = found[s];
    if (!then) continue;
    if (!got)
      return found.length
        ? `it had ${was.length} audio stream${was.length === 1 ? '' : 's'}; it now has ${found.length}, without stream ${s}`
        : 'it had sound; it now has no audio stream';
    const its = `its sound${was.length > 1 ? ` (stream ${s})` : ''}`;
    if (Math.abs(got.duration - then.duration) > slack(then.duration))
      return `${its} lasted ${then.duration.toFixed(2)} s; it now lasts ${got.duration.toFixed(2)} s`;
    // The mix takes both from the item: mono is copied to both sides (pan), and the offset places the samples.
    // A re-export with another layout or start was mixed by the old ones, a side lost or the sound out of sync.
    if (got.channels !== then.channels)
      return `${its} had ${channelWords(then.channels)}; it now has ${channelWords(got.channels)}`;
    const [before, after] = [then.offset ?? 0, got.offset ?? 0];
    if (Math.abs(after - before) > OFFSET_SLACK)
      return `${its} started ${startWords(before)}; it now starts ${startWords(after)}`;
  }
  return null;
}

/**
 * Sound under MIN_SAMPLE_RATE is refused before the mix resamples it to 48 kHz (from 1 Hz one ffmpeg took 1 GB).
 * The import refuses it; a project file may declare such a file as it is, so it is unchanged and checked here.
 */
function assertMixableRate(item: FootageItem, now: MediaProbe, streams: readonly number[]): void {
  const found = audioStreamsOf({ ...item, media: now.media });
  for (const s of streams) {
    const rate = found[s]?.sampleRate;
    if (rate === undefined || rate >= MIN_SAMPLE_RATE) continue;
    throw lowSampleRate(item.path, rate, 'point the footage at the new file (footage.relink)');
  }
}

/** Seconds a stream's start may move between probes (timestamps in milliseconds, rounding). */
const OFFSET_SLACK = 0.002;

const channelWords = (n: number) => (n === 1 ? 'one channel (mono)' : `${n} channels`);

const startWords = (offset: number) =>
  offset === 0
    ? 'with the picture'
    : `${Math.abs(offset).toFixed(3)} s ${offset > 0 ? 'after' : 'before'} the picture`;

/** Each file a mix reads and the audio streams of it the mix plays. */
export function playedStreams(mix: AudioMix): Map<string, number[]> {
  const files = new Map<string, number[]>();
  for (const c of mix.clips) {
    const streams = files.get(c.path) ?? [];
    if (!streams.includes(c.stream)) streams.push(c.stream);
    files.set(c.path, streams);
  }
  return files;
}

/** The file probed: headers only, or counting packets too. */
export type Probe = (options: { countPackets: boolean }) => Promise<MediaProbe>;

/**
 * Throws unsupported_format naming what changed when the file `probe` reads no longer has the sound `item`
 * recorded in the `streams` a mix plays. A file that is no media at all now is the same error.
 */
export async function checkSoundUnchanged(
  probe: Probe,
  item: FootageItem,
  streams: readonly number[],
): Promise<void> {
  const changed = (what: string) =>
    new EngineError(
      'unsupported_format',
      `"${item.path}" has changed since it was imported: ${what}.`,
      REMEDY,
    );
  const look = (countPackets: boolean) =>
    probe({ countPackets }).catch((err: unknown) => {
      if (!(err instanceof EngineError) || err.code !== 'unsupported_format') throw err;
      throw changed(`it is no longer media (${err.message.replace(/\.$/, '')})`);
    });
  const what = await differenceOnDisk(look, (now) => {
    assertMixableRate(item, now, streams);
    return difference(item, now, streams);
  });
  if (what !== null) throw changed(what);
}
