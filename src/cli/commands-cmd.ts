/** `effectcraft-cli commands [--json] [--filter TEXT]`: prints the command catalog. */
import { parseArgs } from 'node:util';
import { createSession } from '../session.js';

export const commandsHelp = `Usage: effectcraft-cli commands [--json] [--filter TEXT] [--schemas]

Prints the command catalog: every command an agent, script or pipeline can run.
  --json         machine-readable output (with --schemas: each command's JSON Schema)
  --filter TEXT  only commands whose id, title, category or description contains TEXT
  --schemas      include the params JSON Schema (implies --json)`;

export async function commandsCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({
    args,
    options: {
      json: { type: 'boolean' },
      filter: { type: 'string' },
      schemas: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.help) {
    process.stdout.write(commandsHelp + '\n');
    return 0;
  }
  const { engine } = createSession();
  const list = engine.list({ filter: values.filter, schemas: values.schemas });
  if (values.json || values.schemas) {
    process.stdout.write(JSON.stringify(list, null, 2) + '\n');
    return 0;
  }
  const width = Math.max(...list.map((c) => c.id.length), 10);
  let category = '';
  for (const c of list) {
    if (c.category !== category) {
      category = c.category;
      process.stdout.write(`\n${category}\n`);
    }
    const notes = [
      c.traits.longRunning ? 'long-running' : '',
      c.traits.backgroundJob ? 'background job' : '',
      c.enabled ? '' : `disabled: ${c.disabledReason}`,
    ].filter(Boolean);
    process.stdout.write(
      `  ${c.id.padEnd(width)}  ${c.title}${notes.length ? `  (${notes.join('; ')})` : ''}\n`,
    );
  }
  process.stdout.write(
    `\n${list.length} commands. Details: effectcraft-cli commands --json --schemas --filter ID\n`,
  );
  return 0;
}
