/**
 * Which file a path holds, without reading it: device, inode, size and modification time. Size and time as well
 * as device and inode: a file put there after ours was removed may get our freed inode number. Used to serve or
 * reuse only the file this process wrote (get_output, the upload store's samples).
 */
export interface FileStamp {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

/** The stamp of a stat result (its other fields left out, so stamps compare and store small). */
export const stampOf = (st: FileStamp): FileStamp => ({
  dev: st.dev,
  ino: st.ino,
  size: st.size,
  mtimeMs: st.mtimeMs,
});

/** Whether `st` (a stat result or a stamp) is the file stamped `file`. */
export function sameFile(st: FileStamp, file: FileStamp): boolean {
  return st.dev === file.dev && st.ino === file.ino && st.size === file.size && st.mtimeMs === file.mtimeMs;
}
