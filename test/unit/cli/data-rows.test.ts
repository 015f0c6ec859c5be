import { describe, expect, it } from 'vitest';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readDataFile } from '../../../src/cli/data-rows.js';
import { tempDir } from '../../helpers/tmp.js';

async function file(name: string, text: string): Promise<string> {
  const path = join(await tempDir(), name);
  await writeFile(path, text);
  return path;
}

describe('--data rows', () => {
  it('CSV: quoted fields, a BOM, a field over two lines; each row knows the line it starts on', async () => {
    const path = await file(
      'rows.csv',
      '\uFEFFname,title\n"Ada, Countess",Dr\n"Grace\nHopper",RAdm\n\nLinus,Mr\n',
    );
    const data = readDataFile(path);
    expect(data.columns).toEqual(['name', 'title']);
    expect(data.rows.map((r) => [r.row, r.line, r.fields])).toEqual([
      [1, 2, { name: 'Ada, Countess', title: 'Dr' }],
      [2, 3, { name: 'Grace\nHopper', title: 'RAdm' }],
      [3, 6, { name: 'Linus', title: 'Mr' }],
    ]);
  });

  it('CSV with CRLF line ends: a field over two lines counts one line break, for its row and the next', async () => {
    const path = await file('rows.csv', 'name,title\r\n"Grace\r\nHopper",RAdm\r\n"A\rB",x\r\nLinus,Mr\r\n');
    // Until 2026-12-07 the rows were said to start on lines 3, 6 and 7 (csv-parse counts a CRLF in quotes twice).
    expect(readDataFile(path).rows.map((r) => [r.row, r.line])).toEqual([
      [1, 2],
      [2, 4],
      [3, 6],
    ]);
  });

  it('CSV: a record of the wrong length is a row that fails alone', async () => {
    const data = readDataFile(await file('rows.csv', 'a,b\n1,2\n3\n4,5\n'));
    expect(data.rows.map((r) => r.error ?? 'ok')).toEqual(['ok', 'it has 1 field; the header has 2', 'ok']);
  });

  it('JSON Lines: values keep their types; a line that is not an object fails alone', async () => {
    const data = readDataFile(
      await file('rows.jsonl', '{"n": 1, "on": true}\n\nnot json\n[1]\n{"x": "y"}\n'),
    );
    expect(data.columns).toEqual(['n', 'on', 'x']);
    expect(data.rows.map((r) => [r.row, r.line, r.error ?? r.fields])).toEqual([
      [1, 1, { n: 1, on: true }],
      [2, 3, 'it is not valid JSON'],
      [3, 4, 'it is not a JSON object'],
      [4, 5, { x: 'y' }],
    ]);
  });

  it('JSON Lines: a BOM and CRLF line ends (Windows PowerShell, Notepad) are not part of the rows', async () => {
    const data = readDataFile(await file('rows.jsonl', '\uFEFF{"name": "Ada"}\r\n{"name": "Bo"}\r\n'));
    expect(data.columns).toEqual(['name']);
    expect(data.rows.map((r) => [r.row, r.line, r.error ?? r.fields])).toEqual([
      [1, 1, { name: 'Ada' }],
      [2, 2, { name: 'Bo' }],
    ]);
  });

  it('refuses, as usage errors, another extension, a missing file, a duplicate column and no rows', async () => {
    expect(() => readDataFile(join(__dirname, 'rows.txt'))).toThrow(/\.csv or \.jsonl/);
    // In words, as a missing project is said, never as an errno code ("(ENOENT)").
    expect(() => readDataFile('/nonexistent/rows.csv')).toThrow(
      /^--data: Cannot read "\/nonexistent\/rows.csv": no such file or directory\.$/,
    );
    expect(() => readDataFile(join(__dirname, 'missing.jsonl'))).toThrow(/no such file or directory/);
    const dup = await file('d.csv', 'a,a\n1,2\n');
    expect(() => readDataFile(dup)).toThrow(/twice/);
    const empty = await file('e.csv', 'a,b\n');
    expect(() => readDataFile(empty)).toThrow(/no rows/);
  });
});
