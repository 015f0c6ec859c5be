/**
 * Which streams of a probed file need a closer look than ffprobe's headers give, and that look
 * (packet-scan.ts). Import stays a header read for ordinary files; these cases read packets:
 * - an Opus stream: its first heard sample comes a pre-skip after its start_time (one packet decoded, always,
 *   so a quick look and the import place it alike);
 * - MP3 and Opus: their stated length counts the encoder's delay and padding, which the decoder drops: the
 *   last seconds are decoded to find the last sample (import, and a check that counts as import did); FLAC
 *   too, whose stated length outlives frames cut off or overwritten;
 * - sound whose length the file does not state (a WebM written to a pipe, as a browser's MediaRecorder writes
 *   it: no Duration), or states only as an estimate from the bit rate (raw ADTS AAC, MP3 without a Xing
 *   header: ffprobe says "Estimating duration from bitrate"): its packets are read to the last one's end;
 * - a video with more packets than its duration holds at its rate: an MP4 cut without re-encoding keeps the
 *   frames before the cut that its edit list discards; the packets' flags tell how many are shown. Or an
 *   MPEG-PS of small pictures, most of whose packets carry no time: ffmpeg states its duration to the last time
 *   it found (1.44 s for 50 frames at 25 fps), and its frames are as far apart as its rate says;
 * - a Matroska (MKV, WebM) video: its frame rate in ffprobe's headers is its default frame duration, which a
 *   variable-rate clip re-muxed there (`ffmpeg -i phone.mp4 -c copy clip.mkv`) states as its average, so the
 *   rates agree and its frames fill its duration: it read as constant-rate, and every frame was shown at
 *   frame number / average rate instead of its own time (3 frames off within half a second). Its packets' times
 *   tell.
 * Packets are read only when the caller counts packets (import; a quick look that disagreed with it).
 */
import {
  isMatroska,
  pictureOf,
  rational,
  soundsOf,
  startOf,
  statedLength,
  type Findings,
  type Format,
  type Stream,
} from './probe-streams.js';
import { firstSampleTime, lastSampleEnd, scanPackets } from './packet-scan.js';
import { parsePacketTimes, readPackets } from './timestamps.js';

/**
 * Codecs whose stated length counts what the decoder drops: MP3's encoder delay and last-frame padding (LAME's
 * header gives both; 1105 + 227 samples from ffmpeg's libmp3lame) and Opus's pre-skip. A 3 s MP3 stated 3.030 s
 * and a 3 s Ogg Opus 3.0065 s, and a loop repeats at the footage's length: each repeat of a looped MP3 came
 * 30 ms late after 30 ms of silence. Their sound lasts to the last sample decoded (the file's end only).
 */
const PADDED = new Set(['mp3', 'opus']);
/**
 * Codecs whose stated length (FLAC's STREAMINFO sample count, written first) outlives a file cut at a frame's edge
 * or whose frames give way to garbage: the decoder says nothing (no "Error while decoding"), so a FLAC stating
 * 2 s that held 0.31 s of sound was imported as 2 s and rendered done, exit 0, with 1.7 s of silence after it.
 * Their sound lasts to the last sample decoded too; when a seek to the stated end finds none, from the start.
 */
const DECODED_TO_END = new Set(['flac']);
/** Seconds before the stated end that the decoder starts from, to reach the last sample (a seek lands near). */
const TAIL_SECONDS = 2;

/** ffprobe's warning (at -v warning) when a duration is only the file size over the bit rate. */
export const ESTIMATED_DURATION = /Estimating duration from bitrate/;

export interface LookOptions {
  /** Packets may be read (import, a check counting as import did). */
  countPackets: boolean;
  /** ffprobe said the file's duration is an estimate. */
  estimated: boolean;
}

/** What closer looks at the streams of `probe` (ffprobe's parsed output for `childPath`) find. */
export async function lookCloser(
  ffprobe: string,
  childPath: string,
  probe: { streams: Stream[]; format?: Format | undefined },
  { countPackets, estimated }: LookOptions,
): Promise<Findings> {
  const sounds = soundsOf(probe.streams).filter((s) => s.index !== undefined);
  const soundStarts = new Map<number, number>();
  const streamEnds = new Map<number, number>();
  const looks: Promise<void>[] = sounds
    .filter((s) => s.codec_name === 'opus')
    .map(async (s) => {
      const first = await firstSampleTime(ffprobe, childPath, s.index!);
      if (first !== null) soundStarts.set(s.index!, first);
    });
  if (countPackets) {
    const unknown = (s: Stream) => estimated || statedLength(s, startOf(s), probe.format) === null;
    for (const s of sounds.filter(unknown))
      looks.push(
        scanPackets(ffprobe, childPath, s.index!).then((scan) => {
          if (scan) streamEnds.set(s.index!, scan.end);
        }),
      );
    const decodedToEnd = (s: Stream) =>
      PADDED.has(s.codec_name ?? '') || DECODED_TO_END.has(s.codec_name ?? '');
    for (const s of sounds.filter((s) => !unknown(s) && decodedToEnd(s))) {
      const rate = Number(s.sample_rate);
      const stated = statedLength(s, startOf(s), probe.format)!;
      const fromStart = DECODED_TO_END.has(s.codec_name ?? '');
      if (rate > 0)
        looks.push(
          lastSampleEnd(ffprobe, childPath, s.index!, rate, startOf(s) + stated - TAIL_SECONDS)
            .then((end) =>
              end === null && fromStart ? lastSampleEnd(ffprobe, childPath, s.index!, rate, 0) : end,
            )
            .then((end) => {
              if (end !== null) streamEnds.set(s.index!, end);
            }),
        );
    }
  }
  let shownFrames: number | undefined;
  let untimedFrames: number | undefined;
  const video = pictureOf(probe.streams);
  if (countPackets && video?.index !== undefined && holdsPreRoll(video, probe.format))
    looks.push(
      scanPackets(ffprobe, childPath, video.index).then((scan) => {
        if (scan?.discarded) shownFrames = scan.shown;
        else if (scan?.untimed) untimedFrames = scan.shown + scan.untimed;
      }),
    );
  let unevenFrames = false;
  if (countPackets && video && isMatroska(probe.format))
    looks.push(
      readPackets(ffprobe, childPath, 'pts', 'Reading the frame times of a clip').then(
        (text) => {
          unevenFrames = spacedUnevenly(parsePacketTimes(text));
        },
        // Not told: the headers' word stands, as before.
        () => undefined,
      ),
    );
  await Promise.all(looks);
  return {
    soundStarts,
    streamEnds,
    ...(shownFrames !== undefined ? { shownFrames } : {}),
    ...(unevenFrames ? { unevenFrames } : {}),
    ...(untimedFrames !== undefined ? { untimedFrames } : {}),
  };
}

/**
 * Whether frame times (ascending seconds) are unevenly spaced: a gap differs from their mean gap by more than
 * 1.5 ms. Matroska rounds times to whole milliseconds by default (a 29.97 fps clip's gaps are 33 and 34 ms, each
 * end off by up to half a millisecond), which stays within it; a frame held for another frame's length does not.
 */
export function spacedUnevenly(times: ArrayLike<number>): boolean {
  if (times.length < 3) return false;
  const mean = (times[times.length - 1]! - times[0]!) / (times.length - 1);
  for (let i = 1; i < times.length; i++)
    if (Math.abs(times[i]! - times[i - 1]! - mean) > UNEVEN_SLACK_S) return true;
  return false;
}

const UNEVEN_SLACK_S = 0.0015;

/**
 * Whether a video stores more frames than its duration holds at its rate (by more than the slack that reads a
 * clip as variable-rate): what an edit list's discarded pre-roll looks like.
 */
function holdsPreRoll(video: Stream, format: Format | undefined): boolean {
  const frames = Number(video.nb_frames ?? video.nb_read_packets);
  const rate = rational(video.avg_frame_rate) ?? rational(video.r_frame_rate);
  const length = statedLength(video, startOf(video), format);
  if (!(frames > 0) || rate === null || length === null) return false;
  return frames - length * rate > Math.max(1.5, frames * 2e-3);
}
