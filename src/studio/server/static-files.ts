/**
 * The page's files, built by Vite into dist/studio/page (index.html and hashed assets). Only names of that
 * shape are served (no path from a request reaches the filesystem beyond one flat folder name), and each file
 * is read once and kept: the bundle is a few hundred kilobytes.
 */
import { readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** From src/studio/server (tests) and dist/studio/server (built) alike: <package>/dist/studio/page. */
export const PAGE_DIR = fileURLToPath(new URL('../../../dist/studio/page/', import.meta.url));

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.json': 'application/json',
  '.map': 'application/json',
};

export interface StaticFile {
  body: Buffer;
  type: string;
  /** Hashed asset names never change content: cache them; index.html must always be fresh. */
  immutable: boolean;
}

export class StaticFiles {
  readonly #dir: string;
  readonly #cache = new Map<string, Promise<StaticFile | null>>();

  constructor(dir = PAGE_DIR) {
    this.#dir = dir;
  }

  /** The file for a URL path, or null (not a page file, or not built). */
  get(pathname: string): Promise<StaticFile | null> {
    const rel = relativeName(pathname);
    if (rel === null) return Promise.resolve(null);
    let file = this.#cache.get(rel);
    if (!file) {
      file = readFile(join(this.#dir, rel)).then(
        (body) => ({
          body,
          type: TYPES[extname(rel)] ?? 'application/octet-stream',
          immutable: rel.startsWith('assets/'),
        }),
        () => null,
      );
      // A missing file is not cached: the page may be built while the app runs (development).
      void file.then((f) => (f ? undefined : this.#cache.delete(rel)));
      this.#cache.set(rel, file);
    }
    return file;
  }
}

/** `/` and `/index.html` -> index.html; `/assets/<name>` and `/<name>` for flat names; anything else null. */
export function relativeName(pathname: string): string | null {
  if (pathname === '/' || pathname === '/index.html') return 'index.html';
  const m = /^\/(assets\/)?([A-Za-z0-9][A-Za-z0-9._-]{0,200})$/.exec(pathname);
  if (!m || m[2]!.includes('..')) return null;
  return `${m[1] ?? ''}${m[2]}`;
}
