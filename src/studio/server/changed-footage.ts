/**
 * Footage whose video file is there but is no longer the clip its import recorded (re-exported under the same
 * name at another size, length or rate): the viewer draws a placeholder for it, and the Project panel marks it
 * "changed" with a Relink button (footage.relink probes the file again). The file is probed only when its stamp
 * (inode, size, change times) differs from the last look, so the page's poll every few seconds costs one stat a
 * file. Probed through the engine's ports: confinement applies as to an import.
 */
import type { Engine, FootageItem } from '../../engine/index.js';
import { audioStreamsOf } from '../../engine/shown-footage.js';
import { checkSoundUnchanged, type Probe } from '../../render/audio/sound-unchanged.js';
import { footageChange } from '../../render/media/footage-unchanged.js';
import { stampOf } from '../../render/preview/footage-stamps.js';

export interface ChangedFootage {
  id: string;
  /** What changed, in the engine's words ("... it was 1920x1080, 6.00 s; it is now 1280x720, 6.00 s."). */
  change: string;
}

/** Results kept; past it the oldest is forgotten (and probed again when asked). */
const KEPT = 512;

export class ChangedFootageCheck {
  readonly #engine: Engine;
  /** By item, path, what it recorded and the file's stamp: the change found, or null. */
  readonly #known = new Map<string, Promise<string | null>>();

  constructor(engine: Engine) {
    this.#engine = engine;
  }

  /** The video and sound footage among `items` whose file is there but differs from what the item recorded. */
  async find(items: readonly FootageItem[]): Promise<ChangedFootage[]> {
    // A music bed re-exported shorter is left out of the studio's sound with "relink the footage": the person
    // needs its Relink button as much as for a clip (the same check as a render's, sound-unchanged.ts).
    const videos = items.filter(
      (i) => (i.media?.kind === 'video' && !i.media.sequence) || i.media?.kind === 'audio',
    );
    const found = await Promise.all(videos.map((item) => this.#changeOf(item)));
    return videos.flatMap((item, i) => (found[i] ? [{ id: item.id, change: found[i] }] : []));
  }

  async #changeOf(item: FootageItem): Promise<string | null> {
    const stamp = await stampOf(item.path);
    if (stamp === 'missing') return null;
    const key = `${item.id}\n${item.path}\n${item.width}x${item.height}\n${JSON.stringify(item.media)}\n${stamp}`;
    let known = this.#known.get(key);
    if (!known) {
      known = this.#probe(item);
      this.#known.set(key, known);
      if (this.#known.size > KEPT) this.#known.delete(this.#known.keys().next().value!);
    }
    return known;
  }

  async #probe(item: FootageItem): Promise<string | null> {
    const { ports } = this.#engine;
    let file;
    try {
      file = await ports.openMedia(item.path);
    } catch {
      // Not readable (or outside the roots): that is for the missing mark and the placeholder to say.
      return null;
    }
    try {
      if (item.media?.kind === 'audio')
        return await soundChange(item, (o) => ports.probeMedia(file, item.path, o));
      return footageChange(item, await ports.probeMedia(file, item.path));
    } catch (err) {
      // No longer media ffprobe can read: changed too (no ffprobe at all: nothing can be told).
      const e = err as { code?: string; message?: string };
      return e.code === 'unsupported_format'
        ? `"${item.path}" has changed since it was imported: ${e.message ?? 'it cannot be read'}`
        : null;
    } finally {
      await file.close();
    }
  }
}

/**
 * What changed in a sound file's streams since its import, in the words a render's refusal uses; null: nothing.
 * `probe` is the engine's (its ffprobe and search path, as a clip's check uses).
 */
async function soundChange(item: FootageItem, probe: Probe): Promise<string | null> {
  const streams = audioStreamsOf(item).map((_, i) => i);
  try {
    await checkSoundUnchanged(probe, item, streams);
    return null;
  } catch (err) {
    const e = err as { code?: string; message?: string };
    if (e.code !== 'unsupported_format') throw err;
    return e.message ?? `"${item.path}" has changed since it was imported.`;
  }
}
