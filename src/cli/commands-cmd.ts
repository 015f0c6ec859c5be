/** `effectcraft-cli commands [--json] [--filter TEXT]`: prints the command catalog. */
import { createSession } from '../session.js';
import { parseOrHelp } from './flag-spec.js';
import { commandsSpec } from './specs/commands.js';

export async function commandsCommand(args: string[]): Promise<number> {
  const parsed = parseOrHelp(commandsSpec, args);
  if (!parsed) return 0;
  const { values } = parsed;
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
