/** Flags more than one subcommand takes, defined once. */
import { DEFAULT_CHUNK_SIZE } from '../../render/distributed/chunks.js';
import { DEFAULT_ATTEMPTS, DEFAULT_BACKOFF_MS } from '../../render/distributed/retry-defaults.js';
import type { FlagSpecs } from '../flag-spec.js';

/** Confinement: `mcp` and `app`. */
export const CONFINEMENT_FLAGS = {
  'automation-read-root': {
    type: 'string',
    value: 'DIR',
    multiple: true,
    help: 'confine reads to DIR; scripts are then refused',
  },
  'automation-write-root': {
    type: 'string',
    value: 'DIR',
    multiple: true,
    help: 'confine writes to DIR (also readable)',
  },
} as const satisfies FlagSpecs;

/** Distributed rendering: `render` and `mcp`, with their own --redis (docs/distributed.md). */
export const CHUNK_FLAGS = {
  'chunk-size': {
    type: 'string',
    value: 'N',
    help: 'with --redis: frames per chunk of an image sequence, or per segment of an MP4, MOV or WebM (GIF, animated WebP and sound alone render whole on one worker)',
    default: String(DEFAULT_CHUNK_SIZE),
  },
  attempts: {
    type: 'string',
    value: 'N',
    help: 'with --redis: tries of a chunk that fails in a way another try or another worker may not (a crash, an I/O error, ffmpeg dying, a footage file a worker cannot read); a bad argument, a version refusal or a cancel fails at once',
    default: String(DEFAULT_ATTEMPTS),
  },
  backoff: {
    type: 'string',
    value: 'MS',
    help: 'with --redis: wait before the first retry of a failed chunk, doubled before each next one (exponential)',
    default: String(DEFAULT_BACKOFF_MS),
  },
} as const satisfies FlagSpecs;

export const JSON_FLAG = {
  json: { type: 'boolean', help: 'print the result as JSON' },
} as const satisfies FlagSpecs;
