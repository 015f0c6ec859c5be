/** Flags more than one subcommand takes, defined once. */
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

export const JSON_FLAG = {
  json: { type: 'boolean', help: 'print the result as JSON' },
} as const satisfies FlagSpecs;
