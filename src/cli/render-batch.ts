/**
 * `render PROJECT --data rows.csv`: every row renders each chosen queue item once, with the row's fields as
 * props and in the output's `{field}`s. Each row's items are added to the opened (never saved) document with
 * renderQueue.add, which checks the props and the output as for any item: a row that does not fit fails alone,
 * naming its row and line, and the others render. Rows go through the queue in chunks, so a file of any length
 * stays within the queue's item limit.
 */
import { dirname } from 'node:path';
import type { ErrorInfo, RenderQueueItem } from '../engine/index.js';
import { LIMITS } from '../engine/limits.js';
import { fillOutputFields, outputFields } from '../engine/output-template.js';
import { checkProps, inputsOf, propsFromText } from '../engine/template-inputs.js';
import type { ItemReport } from '../render/queue/job.js';
import { manifestPathFor } from '../render/queue/manifest.js';
import type { JobResult } from '../render/queue/service.js';
import type { Session } from '../session.js';
import { readDataFile, type DataRow } from './data-rows.js';
import { absoluteFootage } from './footage-props.js';
import { inputNames, propsForComp } from './item-props.js';
import { UsageError } from './usage.js';

export interface RowOutcome {
  row: number;
  line: number;
  status: 'done' | 'failed' | 'stopped';
  /** The files the row's items wrote (first file of a sequence). */
  outputs: string[];
  /**
   * Outputs that were there already and were kept as they are (--resume, --skip-existing): a one-file output, or a
   * sequence's template when every frame was there. Absent when none.
   */
  kept?: string[];
  /**
   * Each of the row's items as a render without --data reports it (files first/last/count, bytes, manifest,
   * and every file's sha256 when the render asks for them); absent for a row that never rendered.
   */
  items?: ItemReport[];
  error?: ErrorInfo;
}

export interface BatchResult {
  completed: number;
  failed: number;
  stopped: number;
  rows: RowOutcome[];
}

/** Renders queue items (renderQueue.render `items`), or the error that kept the job from starting. */
export type RenderItems = (
  ids: string[],
) => Promise<{ ok: true; result: JobResult } | { ok: false; error: ErrorInfo }>;

/** Rows per job: half the queue's limit leaves room for the project's own items. */
const CHUNK_ITEMS = Math.floor(LIMITS.renderQueue.max / 2);

/**
 * The chosen items checked for --data: each output needs a {field}, each field a column, each CSV column must be
 * an input or a field (a misspelt header would otherwise fail every row). Throws UsageError before any render.
 */
function checkTemplates(
  session: Session,
  templates: readonly RenderQueueItem[],
  columns: readonly string[],
  csv: boolean,
) {
  const doc = session.engine.document;
  const inputs = new Set<string>();
  const fields = new Set<string>();
  for (const t of templates) {
    const named = outputFields(t.output);
    if (!named.length)
      throw new UsageError(
        `With --data every row needs its own output, but item "${t.id}" writes "${t.output}" for every row. Put a {field} from the rows in it, e.g. --output 'out/{name}.mp4'.`,
      );
    const missing = named.filter((f) => !columns.includes(f));
    if (missing.length)
      throw new UsageError(
        `The output of item "${t.id}" uses {${missing.join('}, {')}}, which the --data rows do not have (columns: ${columns.join(', ')}).`,
      );
    named.forEach((f) => fields.add(f));
    const comp = doc.items.find((i) => i.id === t.comp);
    if (comp?.type === 'composition') inputsOf(comp).forEach((i) => inputs.add(i.name));
  }
  const stray = csv ? columns.filter((c) => !inputs.has(c) && !fields.has(c)) : [];
  if (stray.length)
    throw new UsageError(
      `The --data column${stray.length > 1 ? 's' : ''} ${stray.map((c) => `"${c}"`).join(', ')} name${stray.length > 1 ? '' : 's'} no input of the compositions rendered and no {field} of an output (inputs: ${[...inputs].join(', ') || 'none'}). Rename ${stray.length > 1 ? 'each' : 'it'} to an input (a misspelt header), use it in the output as {${stray[0]}}, or remove the column.`,
    );
}

/** What every row of one batch shares. */
interface Batch {
  session: Session;
  /** --props: values under every row's (relative footage paths resolve against the current directory). */
  props: Record<string, unknown>;
  /** The data file's folder: a row's relative footage paths resolve against it. */
  folder: string;
  /** Outputs written so far, with the row that writes each: two rows may not write one file. */
  written: Map<string, number>;
  /** Every input of the compositions rendered and every {field} of their outputs (item-props.ts). */
  known: ReadonlySet<string>;
}

/** The props and output of `row` for `template`, or why the row cannot render it. */
function rowItem(
  batch: Batch,
  template: RenderQueueItem,
  row: DataRow,
): { ok: true; params: Record<string, unknown> } | { ok: false; message: string; remediation?: string } {
  const text = Object.fromEntries(
    Object.entries(row.fields).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]),
  );
  const filled = fillOutputFields(template.output, text);
  if (!filled.ok) return { ok: false, message: filled.message };
  const doc = batch.session.engine.document;
  const comp = doc.items.find((i) => i.id === template.comp);
  // Fields that only name an output, or are another composition's inputs, are not this item's props; the rest
  // are checked by renderQueue.add (unknown ones too).
  const fields = propsForComp(doc, template.comp, row.fields, batch.known);
  const typed =
    row.kind === 'csv' && comp?.type === 'composition'
      ? propsFromText(comp, fields as Record<string, string>)
      : fields;
  const values = absoluteFootage(doc, template.comp, typed, batch.folder);
  const given = absoluteFootage(
    doc,
    template.comp,
    propsForComp(doc, template.comp, batch.props, batch.known),
    process.cwd(),
  );
  const { id: _id, comp: compId, frameRange, props: own, ...settings } = template;
  const props = { ...own, ...given, ...values };
  // Checked here too (renderQueue.add checks again) so the remedy points at the data file, not at --props.
  const fit = comp?.type === 'composition' ? checkProps(comp, props) : null;
  if (fit && !fit.ok)
    return {
      ok: false,
      message: fit.message.replace(/\.$/, ''),
      remediation: `Fix the row in the data file ("${fit.input}": ${fit.accepts}).`,
    };
  return {
    ok: true,
    params: {
      ...settings,
      comp: compId,
      output: filled.path,
      ...(frameRange && { frameRange }),
      props,
    },
  };
}

const FIX_ROW = 'Fix the row in the data file.';

const NOT_STARTED: ErrorInfo = {
  code: 'cancelled',
  message: 'The render was stopped before this row.',
  remediation: 'Render again (with --resume, rows whose outputs exist are skipped).',
};

/** Adds the item that renders `template` for `row`, or the error that fails the row. */
async function addRowItem(
  batch: Batch,
  template: RenderQueueItem,
  row: DataRow,
): Promise<{ ok: true; id: string } | { ok: false; error: ErrorInfo }> {
  const item = rowItem(batch, template, row);
  if (!item.ok)
    return {
      ok: false,
      error: { code: 'bad_argument', message: `${item.message}.`, remediation: item.remediation ?? FIX_ROW },
    };
  const output = item.params.output as string;
  // Two outputs may share a manifest (`a_[##].png` and `a.[##].png` both list theirs in a.png.manifest.json):
  // the later row would replace the earlier one's.
  const manifest = manifestPathFor(output);
  const clash = batch.written.get(output) ?? batch.written.get(manifest);
  if (clash !== undefined)
    return {
      ok: false,
      error: {
        code: 'bad_argument',
        message: batch.written.has(output)
          ? `it writes "${output}", as row ${clash} does.`
          : `its render manifest would be "${manifest}", which row ${clash}'s output has: one would replace the other.`,
        remediation: 'Give each row its own output: the values of its {field}s must differ.',
      },
    };
  const added = await batch.session.engine.execute<{ id: string }>('renderQueue.add', item.params);
  if (!added.ok) return added;
  batch.written.set(output, row.row);
  batch.written.set(manifest, row.row);
  return { ok: true, id: added.result.id };
}

/** Renders `templates` once per row of args.data; `render` runs one job. Returns every row's outcome. */
export async function renderBatch(
  session: Session,
  templates: readonly RenderQueueItem[],
  data: string,
  props: Record<string, unknown>,
  render: RenderItems,
): Promise<{ ok: true; result: BatchResult } | { ok: false; error: ErrorInfo }> {
  const file = readDataFile(data);
  checkTemplates(session, templates, file.columns, file.rows[0]?.kind === 'csv');
  const { engine } = session;
  const outcomes: RowOutcome[] = [];
  const known = inputNames(session.engine.document, templates);
  for (const t of templates) outputFields(t.output).forEach((f) => known.add(f));
  const batch: Batch = { session, props, folder: dirname(data), written: new Map(), known };
  const perChunk = Math.max(1, Math.floor(CHUNK_ITEMS / templates.length));
  for (let start = 0; start < file.rows.length; start += perChunk) {
    const chunk = file.rows.slice(start, start + perChunk);
    const added = new Map<RowOutcome, string[]>();
    for (const row of chunk) {
      const outcome: RowOutcome = { row: row.row, line: row.line, status: 'failed', outputs: [] };
      outcomes.push(outcome);
      const failRow = (error: ErrorInfo) =>
        (outcome.error = { ...error, message: `Row ${row.row} (line ${row.line}): ${error.message}` });
      if (row.error) {
        failRow({ code: 'bad_argument', message: `${row.error}.`, remediation: FIX_ROW });
        continue;
      }
      const ids: string[] = [];
      for (const t of templates) {
        const r = await addRowItem(batch, t, row);
        if (!r.ok) {
          failRow(r.error);
          break;
        }
        ids.push(r.id);
      }
      if (outcome.error) for (const id of ids) await engine.execute('renderQueue.remove', { id });
      else added.set(outcome, ids);
    }
    const ids = [...added.values()].flat();
    if (!ids.length) continue;
    const job = await render(ids);
    if (!job.ok) return job;
    const reports = new Map(job.result.items.map((i) => [i.id, i]));
    const queued = new Map(engine.document.renderQueue.map((q) => [q.id, q.output]));
    for (const [outcome, rowIds] of added) {
      const items = rowIds.map((id) => reports.get(id));
      const bad = items.find((i) => i?.status !== 'done');
      outcome.status = bad ? (bad.status === 'stopped' ? 'stopped' : 'failed') : 'done';
      outcome.outputs = items.flatMap((i) => (i?.files ? [i.files.first] : []));
      const kept = items.flatMap((i, n) =>
        i?.status === 'done' && !i.files && i.skipped_frames > 0 ? [queued.get(rowIds[n]!) ?? i.id] : [],
      );
      if (kept.length) outcome.kept = kept;
      outcome.items = items.filter((i): i is ItemReport => i !== undefined);
      if (bad?.error)
        outcome.error = {
          ...bad.error,
          message: `Row ${outcome.row} (line ${outcome.line}): ${bad.error.message}`,
        };
    }
    for (const id of ids) await engine.execute('renderQueue.remove', { id });
    if (job.result.stopped) {
      // Rows of later chunks never started: they are listed as stopped, so every row has an outcome.
      for (const row of file.rows.slice(start + perChunk))
        outcomes.push({ row: row.row, line: row.line, status: 'stopped', outputs: [], error: NOT_STARTED });
      break;
    }
  }
  return {
    ok: true,
    result: {
      completed: outcomes.filter((o) => o.status === 'done').length,
      failed: outcomes.filter((o) => o.status === 'failed').length,
      stopped: outcomes.filter((o) => o.status === 'stopped').length,
      rows: outcomes,
    },
  };
}
