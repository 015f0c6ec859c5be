/**
 * The document of a distributed render, stored once in Redis for the whole render rather than in every chunk's
 * job data: with many chunks (10,000 frames in chunks of 10 is 1,000 jobs) a copy per job multiplied Redis's
 * memory and the coordinator's by the chunks. Workers read it once per render and keep the parsed copy.
 */
import type { Redis } from 'ioredis';
import { EngineError, type ErrorInfo } from '../../engine/index.js';
import { Project } from '../../engine/model.js';

const docKey = (renderId: string) => `effectcraft-render:doc:${renderId}`;

// A backstop for a coordinator killed outright (it deletes the key when the render ends): renewed at every
// item, so only a render whose single item runs longer than this would lose it.
const DOC_TTL_SECONDS = 7 * 24 * 60 * 60;

/** Stores (or renews) the render's document; the coordinator calls it before each item's jobs are added. */
export async function putDoc(client: Redis, renderId: string, doc: Project): Promise<void> {
  await client.set(docKey(renderId), JSON.stringify(doc), 'EX', DOC_TTL_SECONDS);
}

/** The render ended: its document goes. */
export async function dropDoc(client: Redis, renderId: string): Promise<void> {
  await client.del(docKey(renderId));
}

/** Why a worker cannot render a job whose document is gone (the render ended, or Redis lost it). */
export function docGone(renderId: string): ErrorInfo {
  return new EngineError(
    'not_found',
    `The document of render ${renderId} is no longer in Redis: that render has ended or was stopped.`,
    'Render again; if Redis evicts keys (maxmemory-policy), give it room or set the policy to noeviction.',
  ).toInfo();
}

/** A worker's copy of the last render's document: read and parsed once per render, not per chunk. */
export class DocCache {
  #renderId: string | null = null;
  #doc: Project | null = null;

  /** The document of `renderId`, or null when Redis no longer has it. */
  async get(client: Redis, renderId: string): Promise<Project | null> {
    if (this.#renderId === renderId && this.#doc) return this.#doc;
    const text = await client.get(docKey(renderId));
    if (text === null) return null;
    const parsed = Project.safeParse(JSON.parse(text));
    if (!parsed.success) return null;
    this.#renderId = renderId;
    this.#doc = parsed.data;
    return parsed.data;
  }
}
