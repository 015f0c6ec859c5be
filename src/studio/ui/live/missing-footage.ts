/**
 * Which footage files are not there, for the Project panel's marks: asked of the app (its ports see the files,
 * within its confinement) when the document's footage changes, and every few seconds while it has any, so a
 * file moved away or put back shows without an edit (a drive unplugged, a file being re-exported).
 */
import type { Project } from '../../../engine/model.js';
import type { LiveChannel } from './channel.js';

const RECHECK_MS = 3000;

export class MissingFootageWatch {
  readonly #channel: LiveChannel;
  readonly #publish: (ids: readonly string[]) => void;
  #paths = '';
  #timer: ReturnType<typeof setTimeout> | null = null;
  #asking = false;
  /** The footage changed while a question was out: its answer may be about the old files. */
  #again = false;

  constructor(channel: LiveChannel, publish: (ids: readonly string[]) => void) {
    this.#channel = channel;
    this.#publish = publish;
  }

  /** The document changed: ask now when its footage did, and keep asking while it has any. */
  update(doc: Project | null): void {
    const footage = (doc?.items ?? []).filter((i) => i.type === 'footage');
    const paths = footage.map((i) => `${i.id}=${i.path}`).join('\n');
    if (paths === this.#paths) return;
    this.#paths = paths;
    if (!footage.length) {
      this.#stop();
      this.#publish([]);
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
      const { ids } = await this.#channel.request<{ ids: string[] }>('studio.missingFootage');
      this.#publish(ids);
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
