/**
 * The files this server process wrote (render outputs, their manifests, saves, saved frames), by real path, with
 * the file each held when its write ended (device, inode, size, modification time). get_output serves only these, and only while the path still
 * holds that file, so it can never become a way to read arbitrary files on the render node.
 */
import { realpath, stat } from 'node:fs/promises';
import { stampOf, type FileStamp } from './file-stamp.js';

export class WrittenFiles {
  readonly #files = new Map<string, FileStamp>();
  /** Real-path lookups still running, so a get_output right after a render sees its files. */
  #pending: Promise<unknown> = Promise.resolve();

  /** Records `path` by its real path and the file there now (a path gone since, such as a stopped render's frame, is skipped). */
  add(path: string): void {
    const recorded = realpath(path).then(
      async (real) => {
        this.#files.set(real, stampOf(await stat(real)));
      },
      () => undefined,
    );
    this.#pending = Promise.all([this.#pending, recorded.catch(() => undefined)]);
  }

  /** The file this process wrote at real path `real`, or undefined when it wrote none there. */
  async get(real: string): Promise<FileStamp | undefined> {
    await this.#pending;
    return this.#files.get(real);
  }
}
