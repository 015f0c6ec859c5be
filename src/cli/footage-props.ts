/**
 * Footage values given at the command line may be relative paths, as every other path there: they resolve
 * against a folder (the current directory for --props, the data file's folder for --data rows). The engine
 * takes absolute paths only, so this happens here, at the edge, for the inputs whose type is footage.
 */
import { isAbsolute, resolve } from 'node:path';
import type { Project } from '../engine/model.js';
import { inputsOf } from '../engine/template-inputs.js';

/** `props` with the relative values of `compId`'s footage inputs resolved against `base`. */
export function absoluteFootage(
  doc: Project,
  compId: string,
  props: Readonly<Record<string, unknown>>,
  base: string,
): Record<string, unknown> {
  const comp = doc.items.find((i) => i.id === compId);
  if (comp?.type !== 'composition') return { ...props };
  const footage = new Set(
    inputsOf(comp)
      .filter((i) => i.type === 'footage')
      .map((i) => i.name),
  );
  return Object.fromEntries(
    Object.entries(props).map(([k, v]) => [
      k,
      footage.has(k) && typeof v === 'string' && v !== '' && !isAbsolute(v) ? resolve(base, v) : v,
    ]),
  );
}
