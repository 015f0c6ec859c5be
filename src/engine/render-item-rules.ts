/**
 * The rules a render queue item keeps, in one place. renderQueue.add applies them to its params, opening a
 * project file to every item it stores, and the render queue to every item it plans: a hand-edited file
 * must not get what add refuses (an MP4 named `o_[##].png`, a billion-frame range that exhausts memory).
 * Expected failures are values: each caller words them for its own surface (bad_argument for a command,
 * invalid_project naming `renderQueue[i].field` for a file).
 */
import { checkEncoding } from './encoding.js';
import type { ErrorCode, Remedy } from './errors.js';
import { frameCount } from './inspect.js';
import { MAX_SIDE, type Composition, type Encoding, type OutputFormat } from './model.js';
import { ALPHA_FORMATS, describeFormats, formatSpec, listWords } from './output-formats.js';
import { checkOutputFormat } from './output-template.js';

/**
 * The most frames one item renders: a day (the longest composition comp.new makes) at 240 fps (the
 * highest frame rate). The render keeps a few numbers per frame, so a range beyond this is refused
 * before anything is allocated for it.
 */
export const MAX_ITEM_FRAMES = 86_400 * 240;

/** What a queue item says about its output: renderQueue.add's params, or a stored item. */
export interface RenderItemFields {
  output: string;
  /** Omitted: taken from the output's extension. */
  format?: OutputFormat | undefined;
  /** Inclusive; null or omitted: the whole composition. */
  frameRange?: { start: number; end: number } | null | undefined;
  scale?: number | undefined;
  overflow?: readonly unknown[] | undefined;
  alpha?: boolean | undefined;
  /** false: no sound in the output (refused for audio-only formats, which are nothing else). */
  audio?: boolean | undefined;
  /** Encoder settings; each field is checked against the format (encoding.ts). */
  encoding?: Encoding | undefined;
}

export type RenderItemCheck =
  | { ok: true; format: OutputFormat }
  | {
      ok: false;
      /** The field at fault, as named in params and in project files. */
      field: keyof RenderItemFields;
      code: Extract<ErrorCode, 'bad_argument' | 'unsupported_format'>;
      message: string;
      remediation: Remedy;
    };

type Failure = Extract<RenderItemCheck, { ok: false }>;

const fail = (field: Failure['field'], message: string, remediation: Remedy): Failure => ({
  ok: false,
  field,
  code: 'bad_argument',
  message,
  remediation,
});

/** Checks `item` against the composition it renders; the first broken rule, or the item's format. */
export function checkRenderItem(item: RenderItemFields, comp: Composition): RenderItemCheck {
  const resolved = checkOutputFormat(item.output, item.format);
  if (!resolved.ok) return resolved;
  const { format } = resolved;
  return (
    checkFrames(item, comp) ??
    checkScale(item.scale ?? 1, comp) ??
    checkOptions(item, format) ?? { ok: true, format }
  );
}

function checkFrames(item: RenderItemFields, comp: Composition): Failure | undefined {
  const frames = frameCount(comp);
  const range = item.frameRange;
  if (range && (range.end < range.start || range.end >= frames))
    return fail(
      'frameRange',
      `frameRange ${range.start}-${range.end} is not within frames 0-${frames - 1} of "${comp.name}".`,
      (w) => `Use ${w.param('frameRange')} with start <= end <= ${frames - 1}.`,
    );
  const count = range ? range.end - range.start + 1 : frames;
  if (count > MAX_ITEM_FRAMES)
    return fail(
      'frameRange',
      `${range ? 'frameRange' : `The whole of "${comp.name}"`} is ${count} frames; an item renders at most ${MAX_ITEM_FRAMES} (a day at 240 fps).`,
      `Render at most ${MAX_ITEM_FRAMES} frames per item: split it into several items with frameRange.`,
    );
  return undefined;
}

function checkScale(scale: number, comp: Composition): Failure | undefined {
  const [w, h] = [Math.round(comp.width * scale), Math.round(comp.height * scale)];
  if (w <= MAX_SIDE && h <= MAX_SIDE) return undefined;
  return fail(
    'scale',
    `scale ${scale} makes ${w}x${h} frames; outputs are at most ${MAX_SIDE} pixels a side.`,
    (words) =>
      `Use ${words.param('scale')} of at most ${Math.floor((MAX_SIDE / Math.max(comp.width, comp.height)) * 1000) / 1000}.`,
  );
}

function checkOptions(item: RenderItemFields, format: OutputFormat): Failure | undefined {
  if (item.overflow?.length && !formatSpec(format).overflow)
    return fail(
      'overflow',
      'Overflow directories apply to image sequences only.',
      'Remove "overflow", or render a sequence.',
    );
  if (item.alpha && !formatSpec(format).alpha)
    return fail(
      'alpha',
      `Format "${format}" has no alpha channel, so it cannot render RGB + Alpha.`,
      (w) =>
        `Pick a format that carries alpha: ${listWords(describeFormats(ALPHA_FORMATS, true))}; or leave out ${w.param('alpha')}.`,
    );
  if (item.audio === false && formatSpec(format).sound === 'only')
    return fail(
      'audio',
      `Format "${format}" is the composition's sound alone, so it cannot leave the audio out.`,
      (w) => `Leave out ${w.param('audio')}, or pick a format with a picture.`,
    );
  const encoding = checkEncoding(item.encoding, format, item.alpha ?? false);
  if (encoding) return fail('encoding', encoding.message, encoding.remediation);
  return undefined;
}
