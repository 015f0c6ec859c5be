/** --props (render, still): template input values as a JSON object, given inline or in a file. */
import { resolve } from 'node:path';
import { fsError } from '../engine/errors.js';
import { readFlagFile } from './flag-file.js';
import { isUsageError, UsageError } from './usage.js';

/** The most a --props file holds: values for one composition's inputs, never near this. */
const PROPS_MAX_BYTES = 16 * 1024 ** 2;

/** --props: a JSON object given inline (it starts with "{") or in a file. */
export function parseProps(text: string): Record<string, unknown> {
  // "[" too: an inline array is refused as not an object, where it was looked for as a file named "[1,2]".
  const inline = /^\s*[{[]/.test(text);
  let source = text;
  if (!inline) {
    try {
      source = readFlagFile(resolve(text), PROPS_MAX_BYTES, '--props');
    } catch (err) {
      if (isUsageError(err)) throw err;
      // In words, with the path it looked at: a relative one resolves against the current directory.
      const reason = fsError(err, resolve(text), 'read').message.replace(/\.$/, '');
      throw new UsageError(`--props: ${reason}; pass a JSON object or a .json file.`);
    }
  }
  let value: unknown;
  try {
    value = JSON.parse(source);
  } catch {
    throw new UsageError(`--props: ${inline ? 'the value' : `"${text}"`} is not valid JSON.`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new UsageError(
      '--props must be a JSON object of input names and values, e.g. \'{"name": "Ada"}\'.',
    );
  return value as Record<string, unknown>;
}
