/**
 * The files this server process wrote (render outputs, their manifests, saves, saved frames), by real path.
 * get_output serves only these, so it can never become a way to read arbitrary files on the render node.
 */
import { realpath } from 'node:fs/promises';

export class WrittenFiles {
  readonly #paths = new Set<string>();
  /** Real-path lookups still running, so a get_output right after a render sees its files. */
  #pending: Promise<unknown> = Promise.resolve();

  /** Records `path` by its real path (a path gone since, such as a stopped render's frame, is skipped). */
  add(path: string): void {
    const recorded = realpath(path).then(
      (real) => this.#paths.add(real),
      () => undefined,
    );
    this.#pending = Promise.all([this.#pending, recorded]);
  }

  /** Whether the file at real path `real` was written by this process. */
  async has(real: string): Promise<boolean> {
    await this.#pending;
    return this.#paths.has(real);
  }
}
