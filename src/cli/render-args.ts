/**
 * `effectcraft-cli render`'s flags, checked and normalised once into RenderArgs: every default and every
 * combination rule is decided here, so render-cmd.ts only runs commands with what it is given.
 */
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  AUDIO_BIT_DEPTHS,
  AUDIO_BITRATE_RANGE,
  AUDIO_CODECS,
  CODECS,
  GIF_DITHERS,
  GIF_PALETTES,
  PRORES_PROFILES,
  X264_PRESETS,
  type AudioBitDepth,
} from '../engine/encoding.js';
import type { Encoding } from '../engine/model.js';
import { parseOrHelp } from './flag-spec.js';
import { parseProps } from './props-flag.js';
import { renderSpec } from './specs/render.js';
import { distributedFromFlags } from './redis-flags.js';
import { parseChoice, parseWhole, UsageError } from './usage.js';

export interface RenderArgs {
  project: string;
  /** Items to render (undefined: the whole queue, or the --comp item). */
  items?: string[];
  /** --comp: a temporary item added for this render. */
  comp?: { comp: string; output: string; params: Record<string, unknown> };
  /** --item X --output Y: item X renders to Y. */
  itemOutput?: { id: string; output: string };
  /** Relative outputs stored in the project resolve against this folder. */
  outputDir?: string;
  /** Worker threads (undefined: one per core). */
  concurrency?: number;
  /** Encoder settings from the quality flags, merged into every item rendered (empty: none given). */
  encoding: Encoding;
  /** --no-audio: every item rendered leaves the sound out (an audio-only one is refused before rendering). */
  noAudio: boolean;
  resume: boolean;
  json: boolean;
  /** --props: values for the template inputs (unchecked here: the queue's commands check them). */
  props?: Record<string, unknown>;
  /** --data: the rows file, each row one render of every item. */
  data?: string;
  /** --redis: render on `effectcraft-cli worker` processes through Redis instead of on this machine. */
  distributed?: { url: string; chunkSize: number; attempts: number; backoffMs: number };
}

const MAX_WORKERS = 256;

/** Null when --help was printed. */
export function parseRenderArgs(argv: string[]): RenderArgs | null {
  const parsed = parseOrHelp(renderSpec, argv);
  if (!parsed) return null;
  const { values, positionals } = parsed;
  if (positionals.length !== 1) throw new UsageError('expected exactly one PROJECT file.');
  const outputDir = values['output-dir'] === undefined ? undefined : resolve(values['output-dir']);
  // A folder that is not there is made; a file there is the command line's mistake, said before anything opens.
  if (outputDir !== undefined && statSync(outputDir, { throwIfNoEntry: false })?.isDirectory() === false)
    throw new UsageError(`--output-dir "${values['output-dir']}" is a file, not a folder.`);
  // Outputs given here resolve against --output-dir when given, else the current directory.
  const output = values.output === undefined ? undefined : resolve(outputDir ?? '.', values.output);
  const single = (['format', 'frames', 'scale', 'skip-existing', 'alpha'] as const).filter(
    (f) => values[f] !== undefined,
  );
  if (!values.comp && single.length)
    throw new UsageError(
      `${single.map((f) => `--${f}`).join(', ')} ${single.length > 1 ? 'need' : 'needs'} --comp and --output.`,
    );
  // `--item rq_5 --item rq_5` is one item (a script that builds the flags may repeat one).
  if (values.item) values.item = [...new Set(values.item)];
  if (values.comp && values.item) throw new UsageError('use either --item or --comp/--output, not both.');
  if (values.comp && !output) throw new UsageError('--comp needs --output.');
  if (output && !values.comp && values.item?.length !== 1)
    throw new UsageError('--output needs --comp, or exactly one --item whose output it replaces.');
  const encoding = encodingFlags(values);
  const distributed = distributedFromFlags(values);
  // Not built for distributed renders yet: say so rather than render differently from a local render.
  const local = (['resume', 'concurrency'] as const).filter((f) => values[f] !== undefined);
  if (values.redis !== undefined && local.length)
    throw new UsageError(`${local.map((f) => `--${f}`).join(', ')} cannot be used with --redis yet.`);
  return {
    project: resolve(positionals[0]!),
    items: values.item,
    ...(values.comp && output && { comp: { comp: values.comp, output, params: singleItemParams(values) } }),
    ...(!values.comp && output && { itemOutput: { id: values.item![0]!, output } }),
    outputDir,
    concurrency: parseWhole(values.concurrency, '--concurrency', 1, MAX_WORKERS),
    encoding,
    noAudio: values['no-audio'] ?? false,
    resume: values.resume ?? false,
    json: values.json ?? false,
    ...(values.props !== undefined && { props: parseProps(values.props) }),
    ...(values.data !== undefined && { data: resolve(values.data) }),
    ...(distributed && { distributed }),
  };
}

type Values = NonNullable<ReturnType<typeof parseOrHelp<typeof renderSpec.flags>>>['values'];

function encodingFlags(values: Values): Encoding {
  const encoding: Encoding = {
    codec: parseChoice(values.codec, '--codec', CODECS),
    // The widest range any codec takes; each item's codec is checked against its own before anything renders.
    crf: parseWhole(
      values.crf,
      '--crf',
      0,
      63,
      'from 0 to 51 for MP4 (h264, h265), or 0 to 63 for WebM (vp9)',
    ),
    proresProfile: parseChoice(values['prores-profile'], '--prores-profile', PRORES_PROFILES),
    quality: parseWhole(values.quality, '--quality', 1, 100),
    gifPalette: parseChoice(values['gif-palette'], '--gif-palette', GIF_PALETTES),
    gifDither: parseChoice(values['gif-dither'], '--gif-dither', GIF_DITHERS),
    x264Preset: parseChoice(values['x264-preset'], '--x264-preset', X264_PRESETS),
    audioCodec: parseChoice(values['audio-codec'], '--audio-codec', AUDIO_CODECS),
    audioBitrate: parseWhole(
      values['audio-bitrate'],
      '--audio-bitrate',
      AUDIO_BITRATE_RANGE.min,
      AUDIO_BITRATE_RANGE.max,
    ),
    audioBitDepth: parseBitDepth(values['audio-bit-depth']),
  };
  return Object.fromEntries(Object.entries(encoding).filter(([, v]) => v !== undefined));
}

/** --audio-bit-depth: 16, 24 or 32 (float). */
function parseBitDepth(text: string | undefined): AudioBitDepth | undefined {
  const words = AUDIO_BIT_DEPTHS.map(String);
  const chosen = parseChoice(text, '--audio-bit-depth', words);
  return chosen === undefined ? undefined : (Number(chosen) as AudioBitDepth);
}

/** renderQueue.add's params for the --comp item, besides comp, output and encoding. */
function singleItemParams(values: Values): Record<string, unknown> {
  let frameRange: { start: number; end: number } | undefined;
  if (values.frames !== undefined) {
    // A-B, or one frame N (N-N), as aerender's -s/-e and ffmpeg users write a single frame.
    const m = /^(\d+)(?:-(\d+))?$/.exec(values.frames);
    const [start, end] = m ? [Number(m[1]), Number(m[2] ?? m[1])] : [NaN, NaN];
    if (!m || start > end)
      throw new UsageError(`--frames wants A-B with A <= B, or one frame N; got "${values.frames}".`);
    frameRange = { start, end };
  }
  const scale = values.scale === undefined ? undefined : Number(values.scale);
  if (scale !== undefined && !(scale > 0))
    throw new UsageError(`--scale wants a positive number, got "${values.scale}".`);
  return {
    ...(values.format && { format: values.format }),
    ...(frameRange && { frameRange }),
    ...(scale && { scale }),
    ...(values['skip-existing'] && { skipExisting: true }),
    ...(values.alpha && { alpha: true }),
  };
}
