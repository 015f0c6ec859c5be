/** docs/mcp.md gives clients the closed list of error codes to branch on: it must hold every code there is. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ErrorCodes } from '../../../src/engine/errors.js';

describe('the error codes docs/mcp.md lists', () => {
  it('are exactly the codes the engine speaks', async () => {
    const doc = await readFile(join(import.meta.dirname, '../../../docs/mcp.md'), 'utf8');
    const start = doc.indexOf('with `code` from one closed list:');
    const paragraph = doc.slice(start, doc.indexOf('Unexpected exceptions', start));
    expect(start).toBeGreaterThan(0);
    // Every code-quoted word but the field's name and the tool named beside script_error.
    const words = [...paragraph.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]);
    const listed = new Set(words.filter((w) => w !== 'code' && w !== 'script_ui'));
    expect([...listed].filter((c) => !(c! in ErrorCodes))).toEqual([]);
    expect(Object.keys(ErrorCodes).filter((c) => !listed.has(c))).toEqual([]);
  });

  it('are the codes docs/engine.md lists too', async () => {
    // engine.md's "one closed list" left out script_error, which the studio's script_ui gives.
    const doc = await readFile(join(import.meta.dirname, '../../../docs/engine.md'), 'utf8');
    const start = doc.indexOf('with a code from one closed list:');
    const paragraph = doc.slice(start, doc.indexOf('Unexpected exceptions', start));
    expect(start).toBeGreaterThan(0);
    const words = [...paragraph.matchAll(/`([a-z_]+)`/g)].map((m) => m[1]);
    const listed = new Set(words.filter((w) => w !== 'script_ui'));
    expect([...listed].filter((c) => !(c! in ErrorCodes))).toEqual([]);
    expect(Object.keys(ErrorCodes).filter((c) => !listed.has(c))).toEqual([]);
  });
});
