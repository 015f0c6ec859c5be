/**
 * What an uploaded sample may be called. `filename` is a name, never a path: the store puts it in a folder of
 * its own choosing, so a separator, `..`, an absolute path or a NUL would let a caller pick where bytes land.
 */
import type { ErrorInfo } from '../../engine/index.js';

/** Longest name most filesystems accept (bytes of UTF-8). */
const MAX_NAME_BYTES = 255;

export type NameCheck = { ok: true; name: string } | { ok: false; error: ErrorInfo };

/** Checks an upload's filename: a plain name that keeps its extension (file.import reads the format from it). */
export function checkSampleName(filename: string): NameCheck {
  const refuse = (why: string): NameCheck => ({
    ok: false,
    error: {
      code: 'bad_argument',
      message: `filename "${filename.slice(0, 80)}" ${why}.`,
      remediation:
        'Pass only the file name with its extension (e.g. "clip.mp4"); the server chooses the folder and returns the path.',
    },
  });
  // Security: any separator or parent reference could place the file outside its content-addressed folder.
  if (/[/\\]/.test(filename)) return refuse('contains a path separator');
  if (filename === '.' || filename === '..') return refuse('is not a file name');
  // Control characters (NUL above all) end or corrupt a path at the system call and in logs.
  if ([...filename].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f))
    return refuse('contains a control character');
  if (filename.trim() === '') return refuse('is empty');
  if (Buffer.byteLength(filename, 'utf8') > MAX_NAME_BYTES)
    return refuse(`is longer than ${MAX_NAME_BYTES} bytes`);
  // A leading dot would hide the file and could collide with the store's own temporaries.
  if (filename.startsWith('.')) return refuse('starts with a dot');
  return { ok: true, name: filename };
}

/** A sha256 as the tools take it: 64 hex digits, compared in lower case. */
export const SHA256_PATTERN = /^[0-9a-fA-F]{64}$/;
