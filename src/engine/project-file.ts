/**
 * The `.ecproj` format: JSON with `format` and `version`, validated fully on open so a bad file is reported
 * precisely and never half-loaded.
 */
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { EngineError, remedyText } from './errors.js';
import { LIMITS, limitRemedy } from './limits.js';
import { checkRenderItem } from './render-item-rules.js';
import {
  isComposition,
  type Composition,
  Project,
  PROJECT_FORMAT,
  PROJECT_VERSION,
  type Project as ProjectT,
  type Props,
  type TemplateInput,
} from './model.js';
import { projectSize } from './project-size.js';
import { badPropertyValue } from './properties.js';
import { checkProps } from './template-inputs.js';

// eslint-disable-next-line no-control-regex
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * The project's text as saved at `path` (without one, every path as held). Footage, sequence patterns, outputs and overflow folders inside the
 * project's folder are written relative to it (as After Effects keeps relative paths beside absolute ones), so
 * the folder can move, or be mounted elsewhere on a render node, with everything it holds; and relative outputs
 * are what `render --output-dir` re-roots. Paths outside the folder stay absolute. Opening resolves them again.
 */
export function serializeProject(doc: ProjectT, path?: string): string {
  if (path === undefined) return JSON.stringify(doc, null, 2) + '\n';
  const base = dirname(path);
  const near = (p: string): string => {
    const rel = relative(base, p);
    return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : p;
  };
  const items = doc.items.map((item) => {
    // A footage input's default is a file like footage's own: written relative beside it (it showed the old
    // absolute path once the folder moved, while the footage itself was found).
    if (item.type === 'composition')
      return item.inputs?.some((i) => i.type === 'footage')
        ? { ...item, inputs: item.inputs.map((i) => (i.type === 'footage' ? nearInput(i, near) : i)) }
        : item;
    if (item.type !== 'footage') return item;
    const seq = item.media?.kind === 'sequence' ? item.media.sequence : undefined;
    const media = seq ? { ...item.media!, sequence: { ...seq, pattern: near(seq.pattern) } } : item.media;
    return { ...item, path: near(item.path), ...(media ? { media } : {}) };
  });
  const renderQueue = doc.renderQueue.map((q) => ({
    ...q,
    output: near(q.output),
    overflow: q.overflow.map((o) => ({ ...o, dir: near(o.dir) })),
    ...(q.props && { props: footageProps(doc, q.comp, q.props, near) }),
  }));
  return JSON.stringify({ ...doc, items, renderQueue }, null, 2) + '\n';
}

const nearInput = (input: TemplateInput, near: (p: string) => string): TemplateInput =>
  typeof input.default === 'string' ? { ...input, default: near(input.default) } : input;

/** `props` with the values of the composition's footage inputs mapped by `to` (made relative, or resolved). */
function footageProps(doc: ProjectT, compId: string, props: Props, to: (p: string) => string): Props {
  const comp = doc.items.find((i) => i.id === compId);
  const files = new Set(
    comp?.type === 'composition'
      ? (comp.inputs ?? []).filter((i) => i.type === 'footage').map((i) => i.name)
      : [],
  );
  return Object.fromEntries(
    Object.entries(props).map(([k, v]) => [k, files.has(k) && typeof v === 'string' ? to(v) : v]),
  );
}

function invalid(
  path: string,
  what: string,
  remedy = 'Open a valid .ecproj file, or restore it from a backup.',
): EngineError {
  return new EngineError('invalid_project', `Cannot open "${path}": ${what}`, remedy);
}

/**
 * Refuses a file too large to be a project within the size limit before it is decoded: a saved project takes at
 * most `projectSize.max` characters, each at most 3 bytes of UTF-8. (Decoding a file past ~512 MB fails outright.)
 */
export function checkProjectBytes(bytes: number, path: string): void {
  if (bytes > 3 * LIMITS.projectSize.max) {
    throw invalid(
      path,
      `it is ${Math.round(bytes / 2 ** 20)} MiB; a project holds ${LIMITS.projectSize.message}.`,
      LIMITS.projectSize.remedy,
    );
  }
}

/**
 * Parses and validates project text; relative footage paths resolve against the file's folder, relative render
 * outputs against `outputDir` when given (a pipeline renders elsewhere), else the file's folder too.
 */
export function parseProject(text: string, path: string, outputDir?: string): ProjectT {
  if (text.slice(0, 4096).includes('\0'))
    throw invalid(path, 'it is a binary file, not an EffectCraft project.');
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    // JSON.parse quotes the offending text; keep terminal control characters out of the message.
    const detail = (err instanceof Error ? err.message : 'not JSON')
      .replace(CONTROL_CHARS, '?')
      .slice(0, 200);
    throw invalid(
      path,
      `it is not valid JSON (${text.trim().length === 0 ? 'the file is empty' : detail}); it may be truncated.`,
    );
  }
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw))
    throw invalid(path, 'it is not a JSON object.');
  const head = raw as { format?: unknown; version?: unknown };
  if (head.format !== PROJECT_FORMAT)
    throw invalid(
      path,
      `"format" is ${JSON.stringify(head.format)}, not "${PROJECT_FORMAT}"; this is not an EffectCraft project.`,
    );
  if (typeof head.version !== 'number')
    throw invalid(
      path,
      head.version === undefined
        ? '"version" is missing.'
        : `"version" is ${JSON.stringify(head.version).slice(0, 40)}, not a number.`,
    );
  if (head.version > PROJECT_VERSION) {
    throw invalid(
      path,
      `it was saved by a newer EffectCraft (project version ${head.version}; this one reads up to ${PROJECT_VERSION}).`,
      'Upgrade effectcraft-cli to open it.',
    );
  }
  // A file past the size bound is refused before the schema: validating millions of keyframes takes far longer
  // than anything else here (149 MB: 14.6 s, 1.8 GB). Its compact JSON is a floor of its size as saved (saving
  // indents; unknown keys are refused and parsing only adds defaults), and cheap; only a file longer than the
  // bound as read pays for it.
  if (text.length > LIMITS.projectSize.max) {
    let compact = 0;
    try {
      compact = JSON.stringify(raw).length;
    } catch {
      // Nested too deep to print: the schema refuses it, with its path.
    }
    if (compact > LIMITS.projectSize.max)
      throw invalid(
        path,
        `it takes more than ${compact.toLocaleString('en-US')} characters as saved; a project holds ${LIMITS.projectSize.message}.`,
        LIMITS.projectSize.remedy,
      );
  }
  const parsed = Project.safeParse(raw);
  if (!parsed.success) {
    const issues = parsed.error.issues.slice(0, 3);
    const limit = issues.find((i) => limitRemedy(i.message));
    if (limit)
      throw invalid(
        path,
        `${limit.path.join('.')} exceeds a limit: ${limit.message}.`,
        limitRemedy(limit.message)!,
      );
    const listed = issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
    throw invalid(path, `it does not match the project schema (${listed.join('; ')}).`);
  }
  const doc = parsed.data;
  const base = dirname(path);
  // Footage inputs' defaults and footage props may be written relative (serializeProject): resolved before
  // they are checked, as a footage value must be absolute.
  const resolved = (p: string) => (isAbsolute(p) ? p : resolve(base, p));
  for (const item of doc.items)
    if (item.type === 'composition')
      for (const input of item.inputs ?? [])
        if (input.type === 'footage' && typeof input.default === 'string')
          input.default = resolved(input.default);
  for (const q of doc.renderQueue) if (q.props) q.props = footageProps(doc, q.comp, q.props, resolved);
  checkReferences(doc, path);
  sortKeyframes(doc);
  for (const item of doc.items) {
    if (item.type !== 'footage') continue;
    if (!isAbsolute(item.path)) item.path = resolve(base, item.path);
    // A sequence's frames are in its first frame's folder: the pattern follows `path`, so a project moved with
    // its footage, or a path edited by hand, finds them (the pattern as stored may name the old folder).
    const seq = item.media?.kind === 'sequence' ? item.media.sequence : undefined;
    if (seq) seq.pattern = join(dirname(item.path), basename(seq.pattern));
  }
  // Render outputs may be relative too (a bundled project renders next to itself), as may overflow folders.
  const outputBase = outputDir ?? base;
  for (const q of doc.renderQueue) {
    if (!isAbsolute(q.output)) q.output = resolve(outputBase, q.output);
    for (const o of q.overflow) if (!isAbsolute(o.dir)) o.dir = resolve(outputBase, o.dir);
  }
  // The same bound as edits: a project that opens can be saved and opened again.
  const size = projectSize(doc);
  if (size > LIMITS.projectSize.max)
    throw invalid(
      path,
      `it takes ${size.toLocaleString('en-US')} characters as saved; a project holds ${LIMITS.projectSize.message}.`,
      LIMITS.projectSize.remedy,
    );
  return doc;
}

/**
 * Keyframes in time order, as every edit keeps them: a hand-written or generated file may list them in another
 * order, and the interpolation (which searches them in order) then read wrong values without a word (opacity
 * keys at 2 s, 0 s and 1 s read 100 at every time, where 0 until 1 s and 50 at 1.5 s is meant). A stable sort, so
 * a file already in order is unchanged and saves to the same bytes.
 */
function sortKeyframes(doc: ProjectT): void {
  const stack: unknown[] = [doc.items];
  while (stack.length) {
    const value = stack.pop();
    if (!value || typeof value !== 'object') continue;
    if (Array.isArray(value)) {
      for (const v of value) stack.push(v);
      continue;
    }
    const { keyframes } = value as { keyframes?: unknown };
    if (Array.isArray(keyframes) && 'value' in value) {
      const ordered = keyframes.every(
        (k: { time: number }, i) => i === 0 || (keyframes[i - 1] as { time: number }).time <= k.time,
      );
      if (!ordered) keyframes.sort((a: { time: number }, b: { time: number }) => a.time - b.time);
      continue;
    }
    for (const v of Object.values(value)) stack.push(v);
  }
}

/**
 * Neither nesting nor parenting may loop (layer.addPrecomp and layer.setParent refuse both; a hand-edited
 * file may not): a composition inside itself would recurse without end, and every render of it would fail.
 */
function checkLoops(comps: ReadonlyMap<string, Composition>, path: string): void {
  const done = new Set<string>();
  const visit = (id: string, trail: string[]): void => {
    if (done.has(id)) return;
    const at = trail.indexOf(id);
    if (at >= 0) {
      const names = [...trail.slice(at), id].map((c) => `"${comps.get(c)!.name}"`).join(' > ');
      throw invalid(path, `a composition contains itself through precomp layers (${names}).`);
    }
    for (const l of comps.get(id)!.layers)
      if (l.source.kind === 'precomp') visit(l.source.comp, [...trail, id]);
    done.add(id);
  };
  for (const id of comps.keys()) visit(id, []);
  for (const comp of comps.values()) {
    const parents = new Map(comp.layers.map((l) => [l.id, l.parent]));
    // Each layer's chain is walked once: up to a layer already known to reach the top, or back to itself.
    const reachesTop = new Set<string>();
    for (const layer of comp.layers) {
      const chain = new Set<string>();
      for (let up: string | null = layer.id; up && !reachesTop.has(up); up = parents.get(up) ?? null) {
        if (chain.has(up)) {
          const name = comp.layers.find((l) => l.id === up)?.name ?? up;
          throw invalid(path, `layer "${name}" of "${comp.name}" is its own parent, through its parents.`);
        }
        chain.add(up);
      }
      for (const id of chain) reachesTop.add(id);
    }
  }
}

/** Ids must be unique and every link (parent, matte, precomp, footage, active comp, queue) must resolve. */
function checkReferences(doc: ProjectT, path: string): void {
  const ids = new Set<string>();
  const dup = (id: string) => {
    if (ids.has(id)) throw invalid(path, `the id "${id}" is used twice.`);
    ids.add(id);
  };
  const comps = new Map(doc.items.filter(isComposition).map((c) => [c.id, c]));
  const footage = new Set(doc.items.filter((i) => i.type === 'footage').map((i) => i.id));
  for (const item of doc.items) {
    dup(item.id);
    if (!isComposition(item)) continue;
    const layerIds = new Set(item.layers.map((l) => l.id));
    for (const l of item.layers) {
      dup(l.id);
      for (const e of l.effects) dup(e.id);
      const where = `layer "${l.name}" of "${item.name}"`;
      if (l.parent && !layerIds.has(l.parent))
        throw invalid(path, `${where} has a parent "${l.parent}" that does not exist.`);
      if (l.trackMatte && !layerIds.has(l.trackMatte.layer))
        throw invalid(path, `${where} has a track matte "${l.trackMatte.layer}" that does not exist.`);
      if (l.source.kind === 'precomp' && !comps.has(l.source.comp))
        throw invalid(path, `${where} nests a composition "${l.source.comp}" that does not exist.`);
      if (l.source.kind === 'footage' && !footage.has(l.source.footage))
        throw invalid(path, `${where} shows a footage item "${l.source.footage}" that does not exist.`);
      const bad = badPropertyValue(l);
      if (bad)
        throw invalid(
          path,
          `${where}: ${bad}`,
          'Correct that value in the file (the range property.set takes), or restore the file from a backup.',
        );
    }
  }
  checkLoops(comps, path);
  if (doc.activeComp !== null && !comps.has(doc.activeComp))
    throw invalid(path, `the active composition "${doc.activeComp}" does not exist.`);
  for (const [i, q] of doc.renderQueue.entries()) {
    dup(q.id);
    const comp = comps.get(q.comp);
    if (!comp)
      throw invalid(
        path,
        `render queue item "${q.id}" renders a composition "${q.comp}" that does not exist.`,
      );
    // Props are held to the composition's inputs, as renderQueue.add holds them.
    const props = q.props ? checkProps(comp, q.props) : null;
    if (props && !props.ok)
      throw invalid(
        path,
        `renderQueue[${i}].props (item "${q.id}"): ${props.message}`,
        `Fix renderQueue[${i}].props in the file: ${props.accepts}.`,
      );
    // Held to renderQueue.add's rules: a hand-edited item must not get what the command refuses.
    const checked = checkRenderItem(q, comp);
    if (!checked.ok) {
      const field = `renderQueue[${i}].${checked.field}`;
      throw invalid(
        path,
        `${field} (item "${q.id}"): ${checked.message}`,
        `Fix ${field} in the file: ${remedyText(checked.remediation)}`,
      );
    }
  }
  // Ids are allocated from nextId; a file whose counter is behind its ids would hand out duplicates.
  // A loop, not Math.max(...ids): spread arguments go on the stack, and a file within every limit may hold
  // hundreds of thousands of ids (2,000 layers of 100 effects), past the ~125,000 a call can take.
  let maxN = 0;
  for (const id of ids) maxN = Math.max(maxN, Number(/_(\d+)$/.exec(id)?.[1] ?? 0));
  if (doc.nextId <= maxN) doc.nextId = maxN + 1;
}
