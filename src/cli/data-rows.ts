/**
 * The rows of `render --data FILE`: a CSV file with a header line (csv-parse) or JSON Lines (one object per
 * line). A row that cannot be read (a CSV record with the wrong number of fields, a line that is not a JSON
 * object) is a row that fails alone; a file that cannot be read at all is a usage error.
 */
import { extname } from 'node:path';
import { parse } from 'csv-parse/sync';
import { fsError } from '../engine/errors.js';
import { CLI_WORDS } from './cli-words.js';
import { readFlagFile } from './flag-file.js';
import { isUsageError, UsageError } from './usage.js';

export interface DataRow {
  /** 1-based, data rows only (the CSV header is not a row). */
  row: number;
  /** Line of the file the row starts on, for messages. */
  line: number;
  /** CSV fields are text (read as their inputs' types later); JSON Lines fields keep their JSON types. */
  kind: 'csv' | 'jsonl';
  fields: Record<string, unknown>;
  /** Why the row cannot be read; it then fails alone. */
  error?: string;
}

export interface DataFile {
  /** The columns: the CSV header, or every key of any JSON Lines row. */
  columns: string[];
  rows: DataRow[];
}

/** The most a --data file holds: a night's batch of rows is a few MiB. */
const DATA_MAX_BYTES = 256 * 1024 ** 2;

/** Reads --data FILE; the format is its extension: .csv, or .jsonl / .ndjson. */
export function readDataFile(path: string): DataFile {
  const ext = extname(path).toLowerCase();
  if (ext !== '.csv' && ext !== '.jsonl' && ext !== '.ndjson')
    throw new UsageError(
      `--data reads .csv or .jsonl files; "${path}" is neither.`,
      'Give --data a .csv file (a header row, then one row per render) or a .jsonl file (one JSON object per line).',
    );
  let text: string;
  try {
    text = readFlagFile(path, DATA_MAX_BYTES, '--data');
  } catch (err) {
    if (isUsageError(err)) throw err;
    // In words ("no such file or directory"), as a missing project is, not as an errno code ("ENOENT").
    const failure = fsError(err, path, 'read');
    throw new UsageError(`--data: ${failure.message}`, failure.toInfo(CLI_WORDS).remediation);
  }
  const data = ext === '.csv' ? csvRows(text, path) : jsonlRows(text);
  if (!data.rows.length)
    throw new UsageError(
      `--data: "${path}" has no rows.`,
      ext === '.csv'
        ? 'Add one line per render below the header line (the header names the fields: name,title).'
        : 'Add one JSON object per line, one per render ({"name": "Ada"}).',
    );
  return data;
}

function csvRows(text: string, path: string): DataFile {
  let records: { record: string[]; info: { lines: number } }[];
  try {
    // Raw records with their line numbers: a record of the wrong length fails its row, not the file.
    records = parse(text, {
      bom: true,
      skip_empty_lines: true,
      relax_column_count: true,
      info: true,
    }) as unknown as typeof records;
  } catch (err) {
    throw new UsageError(
      `--data: "${path}" is not valid CSV (${(err as Error).message}).`,
      'Fix the file where it says: quote a field that holds a comma, a quote or a line break, and double each quote inside it.',
    );
  }
  const [head, ...body] = records;
  if (!head) return { columns: [], rows: [] };
  const columns = head.record.map((c) => c.trim());
  const dup = columns.find((c, i) => columns.indexOf(c) !== i);
  if (dup !== undefined)
    throw new UsageError(
      `--data: the column "${dup}" appears twice in the header.`,
      'Give each column its own name in the header line.',
    );
  // info.lines is the line a record ends on, but csv-parse counts each \r and \n inside a quoted field as a line
  // (a CRLF twice): count back the field's, and keep the surplus of its CRLFs off every later record's line.
  let surplus = 0;
  const rows = body.map(({ record, info }, i): DataRow => {
    const text = record.join('');
    const line = info.lines - surplus - (text.match(/[\r\n]/g)?.length ?? 0);
    surplus += text.match(/\r\n/g)?.length ?? 0;
    const row: DataRow = { row: i + 1, line, kind: 'csv', fields: {} };
    if (record.length !== columns.length)
      return { ...row, error: `it has ${plural(record.length, 'field')}; the header has ${columns.length}` };
    return { ...row, fields: Object.fromEntries(columns.map((c, j) => [c, record[j]!])) };
  });
  return { columns, rows };
}

function jsonlRows(text: string): DataFile {
  const rows: DataRow[] = [];
  const columns = new Set<string>();
  // A BOM, as Windows PowerShell's Out-File and Notepad write, is not part of the first line's JSON (JSON.parse
  // refused it: row 1 failed "not valid JSON"); a CSV file's is skipped by csv-parse.
  text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .forEach((raw, i) => {
      if (!raw.trim()) return;
      const row: DataRow = { row: rows.length + 1, line: i + 1, kind: 'jsonl', fields: {} };
      let value: unknown;
      try {
        value = JSON.parse(raw);
      } catch {
        rows.push({ ...row, error: 'it is not valid JSON' });
        return;
      }
      if (typeof value !== 'object' || value === null || Array.isArray(value)) {
        rows.push({ ...row, error: 'it is not a JSON object' });
        return;
      }
      for (const k of Object.keys(value)) columns.add(k);
      rows.push({ ...row, fields: value as Record<string, unknown> });
    });
  return { columns: [...columns], rows };
}

/** "1 field", "2 fields". */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
