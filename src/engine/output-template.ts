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

/** Picks the format from the template's extension when not given, and checks the two agree. */
export function resolveOutputFormat(template: string, format: OutputFormat | undefined): OutputFormat {
  const ext = extname(template).toLowerCase();
  const chosen = format ?? formatFromExtension(ext, hasFrameField(template));
  if (!chosen) {
    const known = firstExtensions(formatsWhere((s) => s.inferred));
    throw new EngineError(
      'unsupported_format',
      `Cannot tell the output format from "${ext || 'no extension'}".`,
      `End the output in ${listWords(known)}, or pass "format".`,
    );
  }
  const extensions = formatSpec(chosen).extensions;
  if (!extensions.includes(ext)) {
    throw new EngineError(
      'bad_argument',
      `Format ${chosen} writes ${extensions.join(' or ')} files, but the output ends in "${ext}".`,
      `Change the output's extension to ${extensions[0]}.`,
    );
  }
  if (isSequenceFormat(chosen) && !hasFrameField(template)) {
    throw new EngineError(
      'bad_argument',
      `A ${chosen} sequence needs a frame-number field in "output", e.g. shot_[#####]${ext}.`,
      'Add [#####] (one # per digit) to the file name.',
    );
  }
  if (!isSequenceFormat(chosen) && hasFrameField(template)) {
    throw new EngineError(
      'bad_argument',
      `${chosen} writes one file; "output" must not have a frame field.`,
      'Remove the [###] field from the file name.',
    );
  }
  return chosen;
}
