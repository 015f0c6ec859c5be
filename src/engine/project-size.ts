/**
 * The size of a project as saved (`JSON.stringify(doc, null, 2)` and a newline, see project-file.ts), without
 * serialising it on every edit. Documents are frozen and share whatever an edit did not change, so each object's
 * size is kept with the object: after an edit only the objects on the changed paths are measured again, each
 * from its children's kept sizes. Adding a keyframe to a property with thousands costs a look-up per keyframe,
 * not a serialisation of the layer.
 */

/** An object's text at indentation level 0: its length and its number of lines. */
interface Measure {
  length: number;
  lines: number;
}

const measured = new WeakMap<object, Measure>();

/** The project's length in characters as saved. */
export function projectSize(doc: object): number {
  return measure(doc).length + 1;
}

function measure(value: unknown): Measure {
  if (value === null || typeof value !== 'object')
    return { length: JSON.stringify(value)?.length ?? 0, lines: 1 };
  let m = measured.get(value);
  if (m === undefined) {
    m = Array.isArray(value) ? measureList(value) : measureObject(value as Record<string, unknown>);
    // Small lists of numbers ([x, y]) are cheaper to measure again than to keep.
    if (!Array.isArray(value) || value.length > 4) measured.set(value, m);
  }
  return m;
}

// A child printed one level deeper gains two spaces on each of its lines: JSON.stringify indents every line.
const nested = (child: Measure) => 2 + child.length + 2 * (child.lines - 1);

function measureList(list: readonly unknown[]): Measure {
  if (list.length === 0) return { length: 2, lines: 1 };
  // "[\n" + children joined by ",\n" + "\n]"
  let length = 4 + 2 * (list.length - 1);
  let lines = 2;
  for (const item of list) {
    const m = measure(item);
    length += nested(m);
    lines += m.lines;
  }
  return { length, lines };
}

function measureObject(obj: Record<string, unknown>): Measure {
  let length = 4;
  let lines = 2;
  let entries = 0;
  for (const key of Object.keys(obj)) {
    const value = obj[key];
    if (value === undefined || typeof value === 'function') continue;
    const m = measure(value);
    // `"key": ` before the value
    length += JSON.stringify(key).length + 2 + nested(m);
    lines += m.lines;
    entries++;
  }
  if (entries === 0) return { length: 2, lines: 1 };
  return { length: length + 2 * (entries - 1), lines };
}
