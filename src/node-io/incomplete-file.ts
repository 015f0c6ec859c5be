/**
 * Files that fail to import through no fault of their format: an empty file (a copy or download that never got
 * going), or an MP4/MOV cut off before its end. Such an MP4 lacks its index (the `moov` box, written last by
 * most encoders and cameras), and ffprobe says only "Invalid data found when processing input", which sent people
 * to convert a file that needed copying again. Asked only once an import has failed, to say why.
 */
import { promises as fs } from 'node:fs';
import { EngineError } from '../engine/errors.js';

const AGAIN =
  'Copy, download or export the file again, in full, and import it (or relink the footage to it).';

/** The error for an empty file, `shownPath` as the user named it. */
export function emptyFile(shownPath: string): EngineError {
  return new EngineError(
    'unsupported_format',
    `"${shownPath}" is empty (0 bytes): nothing was written to it, or a copy or download of it did not finish.`,
    AGAIN,
  );
}

/** Top-level boxes an MP4/MOV may begin with (QuickTime files from before `ftyp` begin with others). */
const FIRST_BOXES = new Set(['ftyp', 'moov', 'mdat', 'free', 'skip', 'wide', 'pnot']);
/** Boxes looked at before giving up: real files have a handful at the top level. */
const MAX_BOXES = 1000;

/**
 * Why the file at `path` (read again here; `shownPath` names it to the user) could not be probed, when it is
 * empty or an MP4/MOV whose top-level boxes stop short of the index; null when neither explains it.
 */
export async function incompleteFile(path: string, shownPath: string): Promise<EngineError | null> {
  const handle = await fs.open(path, 'r').catch(() => null);
  if (!handle) return null;
  try {
    const { size } = await handle.stat();
    if (size === 0) return emptyFile(shownPath);
    const cut = await cutIsoFile(handle, size);
    if (!cut) return null;
    return new EngineError(
      'unsupported_format',
      `"${shownPath}" is incomplete: it is an MP4/MOV file (${size} bytes) ${cut}, so it was cut off before its end (an export, recording or copy that did not finish).`,
      `${AGAIN} If it is all there is of a recording, a repair tool that rebuilds the index from a complete file of the same camera (such as untrunc) may save it.`,
    );
  } finally {
    await handle.close();
  }
}

/** What is missing from an ISO media file (MP4, MOV) that was cut short, or null when it is whole or not one. */
async function cutIsoFile(handle: fs.FileHandle, size: number): Promise<string | null> {
  const header = Buffer.alloc(16);
  let offset = 0;
  let index = false;
  for (let n = 0; n < MAX_BOXES && offset < size; n++) {
    const { bytesRead } = await handle.read(header, 0, 16, offset);
    if (bytesRead < 8) return n === 0 ? null : 'whose last box is cut short';
    const type = header.toString('latin1', 4, 8);
    if (n === 0 && !FIRST_BOXES.has(type)) return null;
    if (type === 'moov') index = true;
    const short = header.readUInt32BE(0);
    // 1: a 64-bit size follows the type; 0: the box runs to the end of the file.
    const length = short === 1 && bytesRead >= 16 ? Number(header.readBigUInt64BE(8)) : short;
    if (short === 0) break;
    if (length < 8) return null;
    if (offset + length > size)
      return index
        ? `whose "${type}" box runs ${offset + length - size} bytes past its end`
        : `without its index (the "moov" box), with its "${type}" box ${offset + length - size} bytes short`;
    offset += length;
  }
  return index ? null : 'without its index (the "moov" box, which is written at the end)';
}
