/**
 * The transport's sound (SOUND_PATH): a composition's whole mix as a WAV (src/render/audio/preview-sound.ts),
 * for the page to play along with its frames. Mixes are kept by what they are mixed from, so the page's ask
 * after every edit costs a look-up (304) unless the sound changed; requests for a mix being made share it.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { EngineError, type Engine } from '../../engine/index.js';
import { stampOf } from '../../render/preview/footage-stamps.js';
import { mixPreviewSound, planPreviewSound, type MixedSound } from '../../render/audio/preview-sound.js';
import { SOUND_WARNINGS_HEADER } from '../protocol.js';
import { sendError } from './errors.js';

/** Mixes kept: the compositions a person switches between, and the one before an edit (undo brings it back). */
const KEPT_MIXES = 4;
/** And at most these bytes of WAV together (about 23 minutes of sound). */
const KEPT_BYTES = 256 * 1024 * 1024;

/** A short hash of the files' stamps (footage-stamps.ts: inode, size, change times; "missing" when gone). */
async function filesStamp(paths: readonly string[]): Promise<string> {
  const stamps = await Promise.all([...new Set(paths)].map(stampOf));
  return createHash('sha256').update(stamps.join('|')).digest('hex').slice(0, 12);
}

export class SoundMixes {
  readonly #engine: Engine;
  readonly #findFfmpeg: () => Promise<string | null>;
  /** By key, least recently used first. */
  readonly #mixes = new Map<string, Promise<MixedSound>>();
  readonly #sizes = new Map<string, number>();
  readonly #closing = new AbortController();

  constructor(engine: Engine, findFfmpeg: () => Promise<string | null>) {
    this.#engine = engine;
    this.#findFfmpeg = findFfmpeg;
  }

  async serve(req: IncomingMessage, res: ServerResponse, query: URLSearchParams): Promise<void> {
    try {
      const comp = query.get('comp');
      if (!comp)
        throw new EngineError(
          'bad_argument',
          'The sound request\'s "comp" must be a composition id.',
          'Ask again with comp=ID.',
        );
      // One snapshot: the plan and the mix read the same document.
      const doc = this.#engine.document;
      const plan = planPreviewSound(doc, comp);
      if (!plan) return void res.writeHead(204, { 'cache-control': 'no-store' }).end();
      // The files' identity (inode, size, times of change) is part of what the sound is: a file replaced or put
      // back on disk gave the same key, and the page went on playing the old mix (a 304).
      const key = `${plan.key}-${await filesStamp(plan.mix.clips.map((c) => c.path))}`;
      const etag = `"${key}"`;
      if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
      let mixing = this.#mixes.get(key);
      if (mixing) this.#mixes.delete(key);
      else {
        const ffmpeg = await this.#findFfmpeg();
        mixing = mixPreviewSound(doc, plan, {
          ports: this.#engine.ports,
          ffmpeg,
          signal: this.#closing.signal,
        });
        // A failed mix is not kept: the next ask tries again (a file put back, ffmpeg installed).
        mixing.catch(() => this.#forget(key));
      }
      this.#mixes.set(key, mixing);
      const { wav, warnings } = await mixing;
      this.#sizes.set(key, wav.length);
      this.#trim();
      res.writeHead(200, {
        'content-type': 'audio/wav',
        'content-length': wav.length,
        'cache-control': 'no-cache',
        etag,
        [SOUND_WARNINGS_HEADER]: encodeURIComponent(JSON.stringify(warnings)),
      });
      res.end(req.method === 'HEAD' ? undefined : wav);
    } catch (err) {
      sendError(res, err, 'The sound could not be mixed');
    }
  }

  /** Ends the mixes being made (their ffmpeg killed) and drops every kept one. */
  close(): void {
    this.#closing.abort();
    this.#mixes.clear();
    this.#sizes.clear();
  }

  #forget(key: string): void {
    this.#mixes.delete(key);
    this.#sizes.delete(key);
  }

  #trim(): void {
    const bytes = () => [...this.#sizes.values()].reduce((a, b) => a + b, 0);
    for (const key of this.#mixes.keys()) {
      if (this.#mixes.size <= 1 || (this.#mixes.size <= KEPT_MIXES && bytes() <= KEPT_BYTES)) break;
      this.#forget(key);
    }
  }
}
