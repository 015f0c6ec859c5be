/** --props (render, still): template input values as a JSON object, given inline or in a file. */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fsError } from '../engine/errors.js';
import { UsageError } from './usage.js';

/** --props: a JSON object given inline (it starts with "{") or in a file. */
export function parseProps(text: string): Record<string, unknown> {
  // "[" too: an inline array is refused as not an object, where it was looked for as a file named "[1,2]".
  const inline = /^\s*[{[]/.test(text);
  let source = text;
  if (!inline) {
    try {
      source = readFileSync(resolve(text), 'utf8');
    } catch (err) {
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
