/** Ranges in words, for the parameter descriptions agents read in the JSON Schemas. */

/** "0 to 100", "at least 0", "at most 10", or '' when there is no bound. */
export function rangeWords(spec: { min?: number; max?: number }): string {
  if (spec.min !== undefined && spec.max !== undefined) return `${spec.min} to ${spec.max}`;
  if (spec.min !== undefined) return `at least ${spec.min}`;
  if (spec.max !== undefined) return `at most ${spec.max}`;
  return '';
}
