/**
 * The files this server process wrote (render outputs, their manifests, saves, saved frames), by real path, with
 * the file each held when its write ended (device, inode, size, modification time). get_output serves only these, and only while the path still
 * holds that file, so it can never become a way to read arbitrary files on the render node.
 */
import { realpath, stat } from 'node:fs/promises';

/**
 * Which file a path held when this process wrote it. Size and modification time as well as device and inode: a
 * file put there after ours was removed may get our freed inode number.
 */
export interface WrittenFile {
  dev: number;
  ino: number;
  size: number;
  mtimeMs: number;
}

/** Whether `st` is the file recorded as `file`. */
export function sameWrittenFile(st: WrittenFile, file: WrittenFile): boolean {
  return st.dev === file.dev && st.ino === file.ino && st.size === file.size && st.mtimeMs === file.mtimeMs;
}

export class WrittenFiles {
  readonly #files = new Map<string, WrittenFile>();
  /** Real-path lookups still running, so a get_output right after a render sees its files. */
  #pending: Promise<unknown> = Promise.resolve();

  /** Records `path` by its real path and the file there now (a path gone since, such as a stopped render's frame, is skipped). */
  add(path: string): void {
    const recorded = realpath(path).then(
      async (real) => {
        const st = await stat(real);
        this.#files.set(real, { dev: st.dev, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs });
      },
      () => undefined,
    );
    this.#pending = Promise.all([this.#pending, recorded.catch(() => undefined)]);
  }

  /** The file this process wrote at real path `real`, or undefined when it wrote none there. */
  async get(real: string): Promise<WrittenFile | undefined> {
    await this.#pending;
    return this.#files.get(real);
  }
}
