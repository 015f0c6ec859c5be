/**
 * `{field}`s in a queue item's output when the command line renders without --data: filled from --props, else
 * from the item's stored props, else from the composition's input of that name (its default), as one row of a
 * batch would fill them (the caller merges --props over the item's props). A literal
 * `out/{name}.mp4` written to disk is never what was meant; a field no input and no --props value names is
 * refused before anything renders.
 */
import type { ErrorInfo, Project, RenderQueueItem } from '../engine/index.js';
import { fillItemOutput } from '../engine/output-template.js';

/** The item's output with its fields filled, null when it has none, or why it cannot be. */
export function filledOutput(
  doc: Project,
  item: RenderQueueItem,
  props: Readonly<Record<string, unknown>>,
): { ok: true; output: string | null } | { ok: false; error: ErrorInfo } {
  const filled = fillItemOutput(doc, item, props);
  if (filled.ok) return filled;
  const { field } = filled;
  return {
    ok: false,
    error: filled.message
      ? {
          code: 'bad_argument',
          message: `Item "${item.id}" writes to "${item.output}": ${filled.message}.`,
          remediation: `Give "${field}" another value with --props, or an output without {${field}} (--output).`,
        }
      : {
          code: 'bad_argument',
          message: `Item "${item.id}" writes to "${item.output}", whose {${field}} no input of its composition and no --props value fills.`,
          remediation: `Give one render per row with --data rows.csv (with a column named "${field}"), or "${field}" with --props, or an output without {${field}} (--output).`,
        },
  };
}
