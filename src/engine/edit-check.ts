/**
 * The check every edit passes before it is applied: each place its patches changed must still match the model's
 * schema, limits included (limits.ts), and the project must stay within its saved size. It is the schema project
 * files are opened with, so whatever an edit leaves can always be saved and opened again. Only what the patches
 * changed is validated (a list that grew is checked by its length), so the check costs about what the edit
 * changed, never the size of the document or of the layer.
 */
import type { Patch } from 'immer';
import type { z } from 'zod';
import { EngineError } from './errors.js';
import { LIMITS, limitRemedy, listLimit, type Limit } from './limits.js';
import { Project } from './model.js';
import { projectSize } from './project-size.js';
import { schemaAt, valueAt } from './schema-path.js';

type Path = Patch['path'];

/** Null when `doc`, the result of an edit made of `patches`, may be applied; otherwise why not. */
export function checkEdit(doc: Project, patches: readonly Patch[]): EngineError | null {
  for (const patch of patches) {
    const refused = checkPatch(doc, patch);
    if (refused) return refused;
  }
  const size = projectSize(doc);
  if (size > LIMITS.projectSize.max) {
    return new EngineError(
      'bad_argument',
      `Not applied: the project would take ${size.toLocaleString('en-US')} characters as saved; a project holds ${LIMITS.projectSize.message}.`,
      LIMITS.projectSize.remedy,
    );
  }
  return null;
}

function checkPatch(doc: Project, { op, path }: Patch): EngineError | null {
  const parentPath = path.slice(0, -1);
  const parent = valueAt(doc, parentPath);
  if (Array.isArray(parent) && op !== 'replace') {
    // A list lost an element, or gained one: then its length is checked here and the element below.
    if (op === 'remove') return null;
    const limit = listLimit(schemaAt(Project, doc, parentPath));
    if (limit && parent.length > limit.max) return tooLong(doc, parentPath, limit, parent.length);
  }
  // The place that changed; for a key removed from an object, the object that lost it.
  const place = op === 'remove' ? parentPath : path;
  const value = valueAt(doc, place);
  // Gone again: a later patch of the same edit removed it, and is checked itself.
  if (value === undefined) return null;
  const schema = schemaAt(Project, doc, place);
  if (!schema) return invalid(doc, place, [], 'it is not part of the project model');
  const parsed = schema.safeParse(value);
  return parsed.success ? null : refused(doc, place, parsed.error.issues[0]);
}

function tooLong(doc: Project, path: Path, limit: Limit, length: number): EngineError {
  return new EngineError(
    'bad_argument',
    `Not applied: ${where(doc, path, [])} would hold ${length.toLocaleString('en-US')}; ${limit.message}.`,
    limit.remedy,
  );
}

function refused(doc: Project, path: Path, issue: z.core.$ZodIssue | undefined): EngineError {
  const message = issue?.message ?? 'invalid';
  const remedy = limitRemedy(message);
  if (!remedy) return invalid(doc, path, issue?.path ?? [], message);
  return new EngineError(
    'bad_argument',
    `Not applied: ${where(doc, path, issue?.path ?? [])} would exceed a limit: ${message}.`,
    remedy,
  );
}

function invalid(doc: Project, path: Path, inner: readonly PropertyKey[], why: string): EngineError {
  return new EngineError(
    'bad_argument',
    `Not applied: it would leave ${where(doc, path, inner)} invalid: ${why}.`,
    (w) => `Check the parameters against the command schema (${w.schemas}).`,
  );
}

/** A place as people name it: `layer "Title" of composition "Main" (source.text)`. */
function where(doc: Project, path: Path, inner: readonly PropertyKey[]): string {
  let rest = path;
  let named = 'the project';
  const item = path[0] === 'items' && typeof path[1] === 'number' ? doc.items[path[1]] : undefined;
  if (item) {
    named = `${item.type} "${short(item.name)}"`;
    rest = path.slice(2);
    const layer =
      item.type === 'composition' && rest[0] === 'layers' && typeof rest[1] === 'number'
        ? item.layers[rest[1]]
        : undefined;
    if (layer) {
      named = `layer "${short(layer.name)}" of ${named}`;
      rest = rest.slice(2);
    }
  } else if (path[0] === 'renderQueue' && typeof path[1] === 'number') {
    named = `render queue item ${short(doc.renderQueue[path[1]]?.id ?? String(path[1]))}`;
    rest = path.slice(2);
  }
  const field = [...rest, ...inner].map(String).join('.');
  return field ? `${named} (${field})` : named;
}

/** Names in messages are cut short: a name may be the very thing that is too long. */
function short(name: string): string {
  return name.length > 60 ? `${name.slice(0, 60)}…` : name;
}
