/**
 * Which footage files are not there, and which are there but changed (a clip re-exported under the same name at
 * another size), for the Project panel's marks: asked of the app (its ports see the files, within its
 * confinement) when the document's footage changes, and every few seconds while it has any, so a file moved
 * away, put back or written over shows without an edit (a drive unplugged, a file being re-exported).
 */
import type { Project } from '../../../engine/model.js';
import type { PageToApp } from '../../protocol.js';
import type { LiveChannel } from './channel.js';

export type FootageOnDisk = PageToApp['studio.missingFootage']['result'];

const RECHECK_MS = 3000;

export class MissingFootageWatch {
  readonly #channel: LiveChannel;
  readonly #publish: (found: FootageOnDisk) => void;
  #paths = '';
  #timer: ReturnType<typeof setTimeout> | null = null;
  #asking = false;
  /** The footage changed while a question was out: its answer may be about the old files. */
  #again = false;

  constructor(channel: LiveChannel, publish: (found: FootageOnDisk) => void) {
    this.#channel = channel;
    this.#publish = publish;
  }

  /** The document changed: ask now when its footage did, and keep asking while it has any. */
  update(doc: Project | null): void {
    const footage = (doc?.items ?? []).filter((i) => i.type === 'footage');
    // What each item recorded too, not only its path: a relink to the same path (Apply on a "changed" clip)
    // records the file as it is now, and its mark must go at once, not at the next poll up to 3 s later.
    const paths = footage
      .map((i) => `${i.id}=${i.path}=${i.width}x${i.height}=${JSON.stringify(i.media)}`)
      .join('\n');
    if (paths === this.#paths) return;
    this.#paths = paths;
    if (!footage.length) {
      this.#stop();
      this.#publish({ ids: [], changed: [] });
      return;
    }
    void this.#ask();
  }

  #stop(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
  }

  async #ask(): Promise<void> {
    this.#stop();
    if (this.#asking) {
      this.#again = true;
      return;
    }
    this.#asking = true;
    try {
      const found = await this.#channel.request<FootageOnDisk>('studio.missingFootage');
      this.#publish({ ids: found.ids, changed: found.changed ?? [] });
    } catch {
      // A closed channel: the next view after reconnecting asks again.
    } finally {
      this.#asking = false;
      const again = this.#again;
      this.#again = false;
      if (again) void this.#ask();
      else if (this.#paths) this.#timer = setTimeout(() => void this.#ask(), RECHECK_MS);
    }
  }
}
