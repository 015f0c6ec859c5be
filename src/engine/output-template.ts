/**
 * Output path templates: `shot_[#####].png` numbers frames with zero padding to the number of `#`.
 * Sequence formats need the field; single-file formats (video, animated GIF/WebP) must not have one.
 */
import { basename, dirname, extname, join } from 'node:path';
import { EngineError } from './errors.js';
import type { Remedy } from './surface-words.js';
import type { OutputFormat, Project, RenderQueueItem } from './model.js';
import { inputsOf } from './template-inputs.js';
import {
  firstExtensions,
  formatFromExtension,
  formatSpec,
  formatsWhere,
  isSequenceFormat,
  listWords,
} from './output-formats.js';

const FIELD = /\[(#+)\]/;

export function hasFrameField(template: string): boolean {
  return FIELD.test(template);
}

/** The file name for one frame of a sequence. */
export function framePath(template: string, frame: number): string {
  return template.replace(FIELD, (_m, hashes: string) => String(frame).padStart(hashes.length, '0'));
}

/**
 * The frame a file name stands for in `template`'s sequence, or null when it is not one of its names:
 * `shot_00042.png` is frame 42 of `shot_[#####].png`; `shot_042.png` (other padding) is not. Reading a
 * folder's names this way replaces a stat per frame (a day-long composition has 864,000 of them).
 */
export function frameOfName(template: string, name: string): number | null {
  const file = basename(template);
  const field = FIELD.exec(file);
  if (!field) return null;
  const [prefix, suffix] = [file.slice(0, field.index), file.slice(field.index + field[0].length)];
  if (!name.startsWith(prefix) || !name.endsWith(suffix)) return null;
  const digits = name.slice(prefix.length, name.length - suffix.length);
  if (!/^\d{1,15}$/.test(digits)) return null;
  const frame = Number(digits);
  return framePath(file, frame) === name ? frame : null;
}

/** Why an output template and a format do not go together, and which of the two to change. */
export interface OutputFormatProblem {
  ok: false;
  field: 'output' | 'format';
  code: 'bad_argument' | 'unsupported_format';
  message: string;
  remediation: Remedy;
}

/** Sound-only extensions no format writes (`.aac` alone: AAC is written in an .m4a). */
const UNWRITTEN_SOUND = new Set(['.ogg', '.oga', '.opus', '.flac', '.aac', '.aiff', '.aif']);

/**
 * Picks the format from the template's extension when not given, and checks the two agree: the extension
 * is one of the format's, and the file name has a frame field exactly when the format is a sequence.
 */
export function checkOutputFormat(
  template: string,
  format: OutputFormat | undefined,
): { ok: true; format: OutputFormat } | OutputFormatProblem {
  const problem = (
    field: OutputFormatProblem['field'],
    message: string,
    remediation: Remedy,
    code: OutputFormatProblem['code'] = 'bad_argument',
  ): OutputFormatProblem => ({ ok: false, field, code, message, remediation });
  const ext = extname(template).toLowerCase();
  const chosen = format ?? formatFromExtension(ext, hasFrameField(template));
  if (!chosen) {
    const known = firstExtensions(formatsWhere((s) => s.inferred));
    // Sound containers people reach for that no format writes: passing a format cannot make one.
    if (UNWRITTEN_SOUND.has(ext))
      return problem(
        'output',
        `${ext.slice(1).toUpperCase()} files are not written: sound alone is written as WAV, MP3 or M4A (AAC).`,
        'End the output in .wav, .mp3 or .m4a; for Opus with a picture, .webm.',
        'unsupported_format',
      );
    return problem(
      'output',
      `Cannot tell the output format from "${ext || 'no extension'}".`,
      (w) => `End the output in ${listWords(known)}, or pass ${w.param('format')}.`,
      'unsupported_format',
    );
  }
  const extensions = formatSpec(chosen).extensions;
  if (!extensions.includes(ext))
    return problem(
      'format',
      `Format ${chosen} writes ${extensions.join(' or ')} files, but the output ends in "${ext}".`,
      `Change the output's extension to ${extensions[0]}.`,
    );
  // Only the first field is numbered: a second would stay in every name as it is typed.
  if ((basename(template).match(/\[#+\]/g) ?? []).length > 1)
    return problem(
      'output',
      `The file name of "output" has more than one frame-number field; only one is numbered.`,
      'Keep one [###] field in the file name, e.g. shots/shot_[#####].png.',
    );
  // A field in a folder name would put every frame in its own folder under one file name.
  if (hasFrameField(template) && !hasFrameField(basename(template)))
    return problem(
      'output',
      `The frame-number field of "output" is in a folder name; it belongs in the file name.`,
      'Move [###] into the file name, e.g. shots/shot_[#####].png.',
    );
  if (isSequenceFormat(chosen) && !hasFrameField(template))
    return problem(
      'output',
      `A ${chosen} sequence needs a frame-number field in "output", e.g. shot_[#####]${ext}.`,
      'Add [#####] (one # per digit) to the file name.',
    );
  if (!isSequenceFormat(chosen) && hasFrameField(template))
    return problem(
      'output',
      `${chosen} writes one file; "output" must not have a frame field.`,
      'Remove the [###] field from the file name.',
    );
  return { ok: true, format: chosen };
}

/** checkOutputFormat for callers that throw: an EngineError for a template and format that disagree. */
export function resolveOutputFormat(template: string, format: OutputFormat | undefined): OutputFormat {
  const checked = checkOutputFormat(template, format);
  if (!checked.ok) throw new EngineError(checked.code, checked.message, checked.remediation);
  return checked.format;
}

// A row field in an output template: `out/{name}.mp4` takes `name` from each data row.
const ROW_FIELD = /\{([A-Za-z][A-Za-z0-9_-]{0,63})\}/g;

/** The row fields an output template names, in order, each once. */
export function outputFields(template: string): string[] {
  return [...new Set([...template.matchAll(ROW_FIELD)].map((m) => m[1]!))];
}

// eslint-disable-next-line no-control-regex
const UNSAFE_IN_NAME = /[/\\]|\.\.|[\u0000-\u001f\u007f]/;

// A separator left dangling by removing the frame field (`shot_[###].png` -> `shot.png`).
const FIELD_WITH_SEPARATOR = /[-_. ]?\[#+\]/;

/**
 * Where the manifest of an output template goes: its folder, named after the template without the frame
 * field, plus `.manifest.json` (`/out/shot_[#####].png` -> `/out/shot.png.manifest.json`, `/out/clip.mp4` ->
 * `/out/clip.mp4.manifest.json`). It never matches a frame of the sequence, so skipExisting ignores it.
 */
export function manifestPathFor(output: string): string {
  const own = basename(output);
  const name = own.replace(FIELD_WITH_SEPARATOR, '');
  // `[####].png` leaves `.png`: a hidden name would be easy to miss. A name hidden by itself (`.take.mp4`) keeps
  // its own: `frames.take.mp4` is another output's name, whose manifest it would have replaced.
  const visible = name !== own && (name.startsWith('.') || name === '') ? `frames${name}` : name;
  return join(dirname(output), `${visible}.manifest.json`);
}

/**
 * The longest file name a render writes: NAME_MAX (255 bytes on Linux and macOS) less the 17 bytes the render
 * adds to every file's temporary (`.NAME.<10 hex>.part`, tracker.ts), the manifest's included.
 */
const MAX_NAME_BYTES = 255 - 17;

/**
 * Why a filled output's names are too long to write, or null: each file (a sequence's frame at its field's width)
 * and its manifest, whose name is the longest for a one-file output (`clip.mp4.manifest.json`), and its folders.
 */
function tooLong(path: string): { name: string; bytes: number; limit: number } | null {
  // A folder's name is made as it is (mkdir), up to NAME_MAX.
  const names = [
    ...dirname(path)
      .split(/[/\\]/)
      .map((name) => ({ name, limit: 255 })),
    ...[framePath(path, 0), manifestPathFor(path)].map((p) => ({ name: basename(p), limit: MAX_NAME_BYTES })),
  ];
  for (const { name, limit } of names) {
    const bytes = Buffer.byteLength(name);
    if (bytes > limit) return { name, bytes, limit };
  }
  return null;
}

/** An output with its row fields filled in, or the field whose value cannot be part of a file name. */
export type FilledOutput = { ok: true; path: string } | { ok: false; field: string; message: string };

/**
 * Fills `{field}` from `values`. Security: a value becomes part of a path, so it may not hold a path separator,
 * `..` or a control character (a row could otherwise write outside the output folder), nor be empty.
 */
export function fillOutputFields(template: string, values: Readonly<Record<string, string>>): FilledOutput {
  for (const field of outputFields(template)) {
    const value = values[field] ?? '';
    const bad =
      value === ''
        ? 'is empty'
        : UNSAFE_IN_NAME.test(value)
          ? 'holds a path separator, ".." or a control character'
          : null;
    if (bad)
      return {
        ok: false,
        field,
        message: `the value of "${field}" ${bad} (${JSON.stringify(value.slice(0, 80))}), so it cannot name an output file`,
      };
  }
  const path = template.replace(ROW_FIELD, (_m, field: string) => values[field]!);
  // A long value made a render that wrote every frame and then failed "(ENAMETOOLONG). Check the path and try
  // again.", naming no field.
  const long = tooLong(path);
  // The field whose value is the longest is the one to shorten.
  const [field] = outputFields(template).sort((a, b) => values[b]!.length - values[a]!.length);
  if (long && field !== undefined)
    return {
      ok: false,
      field,
      message: `the value of "${field}" makes the name "${long.name.slice(0, 40)}..." ${long.bytes} bytes long, over the ${long.limit} a render can write`,
    };
  return { ok: true, path };
}

/**
 * A queue item's output with its `{field}`s filled from `props`, else from its composition's input of that name
 * (its default), as one row of a batch fills them: a literal `out/{name}.mp4` on disk is never what was meant.
 * `output` null: no fields. Not ok: `field` nothing fills (no `message`), or whose value cannot be in a name.
 */
export function fillItemOutput(
  doc: Project,
  item: RenderQueueItem,
  props: Readonly<Record<string, unknown>>,
): { ok: true; output: string | null } | { ok: false; field: string; message?: string } {
  const fields = outputFields(item.output);
  if (!fields.length) return { ok: true, output: null };
  const comp = doc.items.find((i) => i.id === item.comp);
  const inputs = comp?.type === 'composition' ? inputsOf(comp) : [];
  const values: Record<string, string> = {};
  for (const field of fields) {
    const value = props[field] ?? inputs.find((i) => i.name === field)?.default;
    if (value === undefined) return { ok: false, field };
    values[field] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  const filled = fillOutputFields(item.output, values);
  return filled.ok ? { ok: true, output: filled.path } : filled;
}
