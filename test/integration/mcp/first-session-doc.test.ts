/**
 * docs/mcp.md's "A first session" is what a new user copies, call by call: its edits must run in order on the
 * document the earlier calls left (the template paragraph binds the text layer the batch made by name).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { newEngine, run } from '../../helpers/engine.js';

type Step = { id: string; params?: Record<string, unknown> };

/** Every `tool {json}` of the section whose JSON parses (those elided with `...` are not calls to copy). */
function calls(section: string): { tool: string; args: Record<string, unknown> }[] {
  const out = [];
  for (const m of section.matchAll(/`([a-z_.A-Z]+) (\{[^`]*\})`/g)) {
    try {
      out.push({ tool: m[1]!, args: JSON.parse(m[2]!) as Record<string, unknown> });
    } catch {
      continue;
    }
  }
  return out;
}

describe('docs/mcp.md, A first session', () => {
  it("its edits run in order, the template's binding included", async () => {
    const doc = await readFile(join(import.meta.dirname, '../../../docs/mcp.md'), 'utf8');
    const start = doc.indexOf('## A first session');
    const section = doc.slice(start, doc.indexOf('## Tools', start));
    const steps: Step[] = [];
    for (const { tool, args } of calls(section)) {
      if (tool === 'command_batch') steps.push(...(args.steps as Step[]));
      else if (tool.includes('.')) steps.push({ id: tool, params: args });
    }
    // The batch's three edits and the template's input.define (until 2026-12-07 not_found: No layer "Hello").
    expect(steps.map((s) => s.id)).toEqual(['comp.new', 'layer.addSolid', 'layer.addText', 'input.define']);
    const engine = newEngine();
    for (const s of steps) await run(engine, s.id, s.params);
    const inputs = await run<{ inputs: { name: string; default: unknown }[] }>(engine, 'input.list', {});
    expect(inputs.inputs).toMatchObject([{ name: 'title', default: 'Hello' }]);
  });
});
