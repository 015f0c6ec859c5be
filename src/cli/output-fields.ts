/**
 * `{field}`s in a queue item's output when the command line renders without --data: filled from --props, else
 * from the composition's input of that name (its default), as one row of a batch would fill them. A literal
 * `out/{name}.mp4` written to disk is never what was meant; a field no input and no --props value names is
 * refused before anything renders.
 */
import type { ErrorInfo, Project, RenderQueueItem } from '../engine/index.js';
import { inputsOf } from '../engine/index.js';
import { fillOutputFields, outputFields } from '../engine/output-template.js';

/** The item's output with its fields filled, null when it has none, or why it cannot be. */
export function filledOutput(
  doc: Project,
  item: RenderQueueItem,
  props: Readonly<Record<string, unknown>>,
): { ok: true; output: string | null } | { ok: false; error: ErrorInfo } {
  const fields = outputFields(item.output);
  if (!fields.length) return { ok: true, output: null };
  const comp = doc.items.find((i) => i.id === item.comp);
  const inputs = comp?.type === 'composition' ? inputsOf(comp) : [];
  const values: Record<string, string> = {};
  for (const field of fields) {
    const value = props[field] ?? inputs.find((i) => i.name === field)?.default;
    if (value === undefined)
      return {
        ok: false,
        error: {
          code: 'bad_argument',
          message: `Item "${item.id}" writes to "${item.output}", whose {${field}} no input of its composition and no --props value fills.`,
          remediation: `Give one render per row with --data rows.csv (a "${field}" column), or "${field}" with --props, or an output without {${field}} (--output).`,
        },
      };
    values[field] = typeof value === 'string' ? value : JSON.stringify(value);
  }
  const filled = fillOutputFields(item.output, values);
  if (!filled.ok)
    return {
      ok: false,
      error: {
        code: 'bad_argument',
        message: `Item "${item.id}" writes to "${item.output}": ${filled.message}.`,
        remediation: `Give "${filled.field}" another value with --props, or an output without {${filled.field}} (--output).`,
      },
    };
  return { ok: true, output: filled.path };
}
