/**
 * Output path templates: `shot_[#####].png` numbers frames with zero padding to the number of `#`.
 * Sequence formats need the field; single-file formats (video, animated GIF/WebP) must not have one.
 */
import { basename, extname } from 'node:path';
import { EngineError } from './errors.js';
import type { OutputFormat } from './model.js';
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
  remediation: string;
}

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
    remediation: string,
    code: OutputFormatProblem['code'] = 'bad_argument',
  ): OutputFormatProblem => ({ ok: false, field, code, message, remediation });
  const ext = extname(template).toLowerCase();
  const chosen = format ?? formatFromExtension(ext, hasFrameField(template));
  if (!chosen) {
    const known = firstExtensions(formatsWhere((s) => s.inferred));
    return problem(
      'output',
      `Cannot tell the output format from "${ext || 'no extension'}".`,
      `End the output in ${listWords(known)}, or pass "format".`,
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
