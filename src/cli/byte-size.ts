/** Byte-size flags (`--max-body 16M`): a whole number of bytes, or with K, M or G (powers of 1024). */
import { UsageError } from './usage.js';

const UNITS: Record<string, number> = { '': 1, K: 1024, M: 1024 ** 2, G: 1024 ** 3 };

/** Parses `text` as a size in bytes (at least `min`); undefined when the flag is absent. */
export function parseByteSize(text: string | undefined, flag: string, min = 1): number | undefined {
  if (text === undefined) return undefined;
  const m = /^(\d+)\s*([KMG]?)(?:i?B)?$/i.exec(text.trim());
  const n = m ? Number(m[1]) * UNITS[m[2]!.toUpperCase()]! : NaN;
  if (!Number.isSafeInteger(n) || n < min)
    throw new UsageError(
      `${flag} must be a size of at least ${min} bytes, such as 16M or 2G; got "${text}".`,
    );
  return n;
}

/** A count flag (`--max-concurrent 4`): a whole number >= 1; undefined when absent. */
export function parseCount(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1)
    throw new UsageError(`${flag} must be a whole number >= 1; got "${text}".`);
  return n;
}
