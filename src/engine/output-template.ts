/**
 * Output path templates: `shot_[#####].png` numbers frames with zero padding to the number of `#`.
 * Sequence formats need the field; single-file formats (video, animated GIF/WebP) must not have one.
 */
import { extname } from 'node:path';
import { EngineError } from './errors.js';
import type { OutputFormat } from './model.js';

const FIELD = /\[(#+)\]/;

export const SEQUENCE_FORMATS: readonly OutputFormat[] = ['png', 'png-fast', 'jpeg', 'webp'];

export function isSequenceFormat(format: OutputFormat): boolean {
  return SEQUENCE_FORMATS.includes(format);
}

export function hasFrameField(template: string): boolean {
  return FIELD.test(template);
}

/** The file name for one frame of a sequence. */
export function framePath(template: string, frame: number): string {
  return template.replace(FIELD, (_m, hashes: string) => String(frame).padStart(hashes.length, '0'));
}

const BY_EXTENSION: Record<string, OutputFormat> = {
  '.png': 'png',
  '.jpg': 'jpeg',
  '.jpeg': 'jpeg',
  '.gif': 'gif',
  '.mp4': 'mp4',
  '.webm': 'webm',
  '.mov': 'mov',
};

const EXTENSIONS: Record<OutputFormat, string[]> = {
  png: ['.png'],
  'png-fast': ['.png'],
  jpeg: ['.jpg', '.jpeg'],
  webp: ['.webp'],
  gif: ['.gif'],
  'webp-anim': ['.webp'],
  mp4: ['.mp4'],
  webm: ['.webm'],
  mov: ['.mov'],
};

/** Picks the format from the template's extension when not given, and checks the two agree. */
export function resolveOutputFormat(template: string, format: OutputFormat | undefined): OutputFormat {
  const ext = extname(template).toLowerCase();
  const chosen =
    format ?? (ext === '.webp' ? (hasFrameField(template) ? 'webp' : 'webp-anim') : BY_EXTENSION[ext]);
  if (!chosen) {
    throw new EngineError(
      'unsupported_format',
      `Cannot tell the output format from "${ext || 'no extension'}".`,
      'End the output in .png, .jpg, .webp, .gif, .mp4, .webm or .mov, or pass "format".',
    );
  }
  if (!EXTENSIONS[chosen].includes(ext)) {
    throw new EngineError(
      'bad_argument',
      `Format ${chosen} writes ${EXTENSIONS[chosen].join(' or ')} files, but the output ends in "${ext}".`,
      `Change the output's extension to ${EXTENSIONS[chosen][0]}.`,
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
