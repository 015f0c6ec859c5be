/**
 * ffprobe at import: one child process per file, with a timeout and a bound on what it may print, reading the
 * file through the descriptor the (confined) ports opened. Its JSON is parsed with a zod schema (data from
 * another process is never cast unchecked, probe-streams.ts) and turned into the footage item's media facts; the
 * few files whose headers cannot be trusted get a closer look at their packets first (closer-look.ts).
 */
import type { z } from 'zod';
import { EngineError, type AudioStreamInfo, type FootageMedia } from '../../engine/core.js';
import type { MediaProbe } from '../../engine/ports.js';
import { runBounded } from './child-output.js';
import { FOOTAGE_INPUT_OPTIONS, notSelfContained, refusedFormat } from './input-formats.js';
import { videoEnd } from './vfr-end.js';
import { ESTIMATED_DURATION, lookCloser } from './closer-look.js';
import {
  pictureOf,
  positive,
  ProbeOutput,
  rational,
  soundsOf,
  startOf,
  statedLength,
  type Findings,
  type Format,
  type Stream,
} from './probe-streams.js';

export { rational };

/** A probe that takes longer is stopped (a network mount, a pathological file). */
export const PROBE_TIMEOUT_MS = 30_000;
/** ffprobe's JSON for one file is a few KiB; much more means something is wrong. */
const PROBE_MAX_BYTES = 1024 * 1024;

/**
 * Whether a clip's frames are unevenly spaced. ffprobe's r_frame_rate is the lowest rate all timestamps fit and
 * differs from the average when they are not (a 1/1000 relative slack keeps 29.97 from reading as variable);
 * Matroska, WebM and GIF report the two equal whatever the spacing, so there a frame count that does not fill
 * the stream's duration at that rate (a screen recording holding a still) tells it too.
 */
function unevenlySpaced(
  avg: number | null,
  real: number | null,
  frames: number | null,
  duration: number,
  rate: number,
): boolean {
  if (avg !== null && real !== null && Math.abs(avg - real) / real > 1e-3) return true;
  if (frames === null || !duration) return false;
  return Math.abs(duration * rate - frames) > Math.max(1.5, frames * 2e-3);
}

/** Offsets beyond this are a broken file's timestamps, not an edit: they are not followed. */
const MAX_SOUND_OFFSET = 3600;

/** Pixel formats with an alpha channel (ffmpeg's names). */
const ALPHA_PIX_FMT = /^(yuva|rgba|bgra|argb|abgr|gbrap|ya[0-9]|rgba64|bgra64|pal8)/;

/** Clockwise display rotation from the display matrix (counter-clockwise degrees) or the old `rotate` tag. */
function rotationOf(s: Stream): FootageMedia['rotation'] {
  const matrix = s.side_data_list?.find((d) => d.rotation !== undefined)?.rotation;
  const degrees = matrix !== undefined ? -matrix : Number(s.tags?.rotate ?? 0);
  const turned = (((Math.round(degrees / 90) * 90) % 360) + 360) % 360;
  return turned as FootageMedia['rotation'];
}

/** A stream tag as a document may hold it: trimmed, at most 100 characters, absent when empty. */
function tag(value: string | undefined): string | undefined {
  const text = value
    ?.replace(/\p{Cc}/gu, '')
    .trim()
    .slice(0, 100);
  return text ? text : undefined;
}

/** One audio stream's facts; its offset is from the first picture's time (0 without a picture). */
function soundOf(
  sound: Stream,
  video: Stream | undefined,
  format: Format | undefined,
  findings: Findings,
): AudioStreamInfo {
  // Its first heard sample: an Opus decoder drops the pre-skip that the stream's start_time counts.
  const start =
    (sound.index !== undefined ? findings.soundStarts?.get(sound.index) : undefined) ?? startOf(sound);
  // Footage time 0 is the first picture; a sound stream that starts later (or earlier) plays that much later.
  const offset = video ? Math.round((start - startOf(video)) * 1e6) / 1e6 : 0;
  const end = sound.index !== undefined ? findings.streamEnds?.get(sound.index) : undefined;
  // To the microsecond: a sum of a frame's time and its samples over the rate is not exact in binary.
  const counted = end !== undefined ? positive(String(Math.round((end - start) * 1e6) / 1e6)) : null;
  const language = tag(sound.tags?.language ?? sound.tags?.LANGUAGE);
  const title = tag(sound.tags?.title ?? sound.tags?.TITLE);
  return {
    codec: sound.codec_name ?? 'unknown',
    sampleRate: Math.round(positive(sound.sample_rate) ?? 48_000),
    channels: Math.max(1, sound.channels ?? 2),
    duration: counted ?? statedLength(sound, start, format) ?? 0,
    // Under a tenth of a millisecond is no offset (and keeps the item as it was for most files).
    ...(Math.abs(offset) >= 1e-4 && Math.abs(offset) <= MAX_SOUND_OFFSET ? { offset } : {}),
    // "und" is ffmpeg's "undetermined": no language.
    ...(language && language !== 'und' ? { language } : {}),
    ...(title ? { title } : {}),
  };
}

/**
 * The container's name: ffprobe names a demuxer's whole family ("mov,mp4,m4a,3gp,3g2,mj2", "matroska,webm"), so
 * the one the file's extension names when it is in the family (an .mp4 is "mp4", not "mov"), else the first.
 */
export function containerName(formatName: string | undefined, path: string): string {
  const family = formatName?.split(',').filter(Boolean) ?? [];
  const ext = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase();
  return (ext && family.includes(ext) ? ext : family[0]) ?? 'unknown';
}

/** ffprobe's JSON output, checked; throws unsupported_format when it is not what ffprobe prints. */
export function parseProbe(json: unknown, shownPath: string): z.infer<typeof ProbeOutput> {
  const parsed = ProbeOutput.safeParse(json);
  if (!parsed.success) throw notMedia(shownPath, 'ffprobe gave output that could not be read');
  return parsed.data;
}

/**
 * The media facts of ffprobe's JSON output, with what closer looks at its streams found; throws
 * unsupported_format when it holds no picture or sound.
 */
export function mediaFromProbe(json: unknown, shownPath: string, findings: Findings = {}): MediaProbe {
  const { streams, format } = parseProbe(json, shownPath);
  const video = pictureOf(streams);
  const container = containerName(format?.format_name, shownPath);
  const sounds = soundsOf(streams).map((s) => soundOf(s, video, format, findings));
  const audio = sounds[0] ?? null;
  const audioStreams = sounds.length > 1 ? { audioStreams: sounds } : {};
  if (!video?.width || !video.height) {
    if (!audio) throw notMedia(shownPath, `ffprobe found no video or audio stream in it (${container})`);
    return {
      width: 1,
      height: 1,
      format: container,
      media: {
        kind: 'audio',
        duration: audio.duration,
        frameRate: null,
        frameCount: null,
        variableFrameRate: false,
        pixelAspect: 1,
        alpha: false,
        rotation: 0,
        codec: null,
        sequence: null,
        audio,
        ...audioStreams,
      },
    };
  }
  const avg = rational(video.avg_frame_rate);
  const real = rational(video.r_frame_rate);
  const frameRate = avg ?? real ?? 25;
  const untimed = findings.untimedFrames;
  // Packets without times (MPEG-PS): the stated length stops at the last time found; the frames say how long.
  const duration =
    untimed !== undefined
      ? untimed / (real ?? frameRate)
      : (statedLength(video, startOf(video), format) ?? 0);
  const counted =
    untimed ?? findings.shownFrames ?? positive(video.nb_frames) ?? positive(video.nb_read_packets);
  const variableFrameRate =
    untimed === undefined &&
    (findings.unevenFrames === true || unevenlySpaced(avg, real, counted, duration, frameRate));
  const frameCount = Math.max(1, Math.round(counted ?? duration * frameRate));
  const pixelAspect = rational(video.sample_aspect_ratio) ?? 1;
  const rotation = rotationOf(video);
  const shownWidth = Math.max(1, Math.round(video.width * pixelAspect));
  const turned = rotation === 90 || rotation === 270;
  const codec = video.codec_name ?? null;
  return {
    width: turned ? video.height : shownWidth,
    height: turned ? shownWidth : video.height,
    format: container,
    media: {
      kind: 'video',
      duration: duration || frameCount / frameRate,
      frameRate,
      frameCount,
      variableFrameRate,
      pixelAspect,
      // libvpx keeps VP8/VP9 alpha in a side channel that ffprobe reports only as a tag.
      alpha: ALPHA_PIX_FMT.test(video.pix_fmt ?? '') || video.tags?.alpha_mode === '1',
      rotation,
      codec,
      sequence: null,
      yuv: yuvOf(video),
      ...pictureStartOf(video, format),
      audio,
      ...audioStreams,
    },
    ...interlaced(video, shownPath),
  };
}

/** ffprobe's field orders of interlaced video (tt, bb: top or bottom first; tb, bt: coded one way, shown the other). */
const INTERLACED = new Set(['tt', 'bb', 'tb', 'bt']);

/**
 * A warning for interlaced video: frames are drawn whole, as they are stored (no field is separated, as After
 * Effects' "separate fields" would), so whatever moves shows combing, scaled or not. Deinterlacing before the
 * import is the remedy; the file is otherwise imported as it is.
 */
function interlaced(video: Stream, shownPath: string): { warnings?: string[] } {
  const order = video.field_order;
  if (!order || !INTERLACED.has(order)) return {};
  const first = order === 'tt' || order === 'tb' ? 'top' : 'bottom';
  return {
    warnings: [
      `"${shownPath}" is interlaced (${first} field first): its frames are drawn whole, both fields together, so ` +
        'whatever moves in it shows combing. Deinterlace it first (ffmpeg -i FILE -vf bwdif -c:a copy ' +
        'progressive.mp4) and import or relink to that file for clean motion.',
    ],
  };
}

/**
 * `pictureStart` when the picture starts after the file does (ffmpeg's `-ss` counts from the file's start, the
 * earliest stream's; a frame is found from the first picture). Under a tenth of a millisecond is none.
 */
function pictureStartOf(video: Stream, format: Format | undefined): { pictureStart?: number } {
  const fileStart = Number(format?.start_time);
  if (format?.start_time === undefined || !Number.isFinite(fileStart)) return {};
  const late = startOf(video) - fileStart;
  return late >= 1e-4 && late <= 3600 ? { pictureStart: late } : {};
}

/** ffprobe's words for "not stated". */
const UNSTATED = new Set(['unknown', 'unspecified', 'reserved']);

/** How the video's pictures are stored (null when ffprobe names no pixel format). */
function yuvOf(s: Stream): FootageMedia['yuv'] {
  if (!s.pix_fmt) return null;
  const stated = (v: string | undefined) => (v && !UNSTATED.has(v) ? v.slice(0, 64) : null);
  const range = stated(s.color_range);
  return {
    pixelFormat: s.pix_fmt.slice(0, 64),
    matrix: stated(s.color_space),
    range: range === 'tv' || range === 'pc' ? range : null,
  };
}

function notMedia(shownPath: string, said: string): EngineError {
  return new EngineError(
    'unsupported_format',
    `"${shownPath}" is not media EffectCraft can read: ${said}.`,
    'Import a video (MP4, MOV, WebM, GIF...), an audio file, an image, or a numbered image sequence.',
  );
}

/**
 * Runs ffprobe on `childPath` (the opened file) and returns its media facts. `countPackets: false` reads only
 * the headers (a long file's packets are not demuxed): the frame count of WebM and GIF is then estimated.
 */
export async function probeMedia(
  ffprobe: string,
  childPath: string,
  shownPath: string,
  { countPackets = true }: { countPackets?: boolean } = {},
): Promise<MediaProbe> {
  const result = await runBounded(
    ffprobe,
    [
      // Warnings too, each tagged with its level: ffprobe says only in a warning that a duration is an
      // estimate from the bit rate; a failure's message is still its last error line.
      '-v',
      'level+warning',
      '-print_format',
      'json',
      '-show_format',
      '-show_streams',
      // Containers without a frame count in their header (WebM, GIF): counting packets only demuxes.
      ...(countPackets ? ['-count_packets'] : []),
      ...FOOTAGE_INPUT_OPTIONS,
      childPath,
    ],
    { timeoutMs: PROBE_TIMEOUT_MS, maxBytes: PROBE_MAX_BYTES, what: `Probing "${shownPath}"` },
  );
  if (result.code !== 0) {
    const refused = refusedFormat(result.stderr);
    if (refused) throw notSelfContained(shownPath, refused);
    const said = lastError(result.stderr, childPath)?.replaceAll(childPath, shownPath) || 'it failed';
    throw notMedia(shownPath, `ffprobe said "${said.slice(0, 300)}"`);
  }
  let json: unknown;
  try {
    json = JSON.parse(result.stdout.toString('utf8'));
  } catch {
    throw notMedia(shownPath, 'ffprobe gave output that is not JSON');
  }
  const findings = await lookCloser(ffprobe, childPath, parseProbe(json, shownPath), {
    countPackets,
    estimated: ESTIMATED_DURATION.test(result.stderr),
  });
  const probed = mediaFromProbe(json, shownPath, findings);
  const media = probed.media;
  // A variable-rate clip lasts to its last frame's end, which its headers may not reach (vfr-end.ts).
  if (media.kind === 'video' && media.variableFrameRate && media.duration !== null) {
    const end = await videoEnd(ffprobe, childPath, media.duration);
    if (end !== null && end > media.duration) return { ...probed, media: { ...media, duration: end } };
  }
  return probed;
}

/**
 * The last line ffprobe logged at error level (or worse), without its level tag or the context's address
 * (`[pcm_s16le @ 0x55e9d798cb80]`: another each run). When that line only names the file with an errno, the
 * error before it says why: a Y4M whose header claims 30000x30000 ends "huge.y4m: Device or resource busy"
 * after "Picture size 30000x30000 is invalid", and only the busy device was reported.
 */
function lastError(stderr: string, childPath: string): string | undefined {
  const errors = stderr
    .trim()
    .split('\n')
    .filter((line) => !/\[(warning|info|verbose|debug)\] /.test(line))
    .map((line) => line.replace(/\[(error|fatal|panic)\] /, '').replace(/ @ 0x[0-9a-f]+\]/, ']'));
  const last = errors.at(-1);
  const before = errors.at(-2);
  return last?.startsWith(`${childPath}: `) && before && !before.startsWith(`${childPath}: `)
    ? `${before}; ${last}`
    : last;
}

export function missingFfprobe(): EngineError {
  return new EngineError(
    'missing_dependency',
    'Importing video or audio needs ffprobe (part of ffmpeg), which was not found on PATH.',
    'Install it: apt-get install ffmpeg. Still images and image sequences import without it.',
  );
}
