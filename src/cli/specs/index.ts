/**
 * Every subcommand's definition, in `effectcraft-cli --help` order. Pure data (no engine, renderer or server
 * is loaded), so the top-level help and dispatch stay cheap; docs/cli.md is generated from this list.
 */
import { markdownSection, type CommandSpec } from '../flag-spec.js';
import { appSpec } from './app.js';
import { commandsSpec } from './commands.js';
import { inspectSpec } from './inspect.js';
import { mcpSpec } from './mcp.js';
import { renderSpec } from './render.js';
import { stillSpec } from './still.js';
import { workerSpec } from './worker.js';

export const SUBCOMMAND_SPECS: readonly CommandSpec[] = [
  renderSpec,
  stillSpec,
  inspectSpec,
  commandsSpec,
  mcpSpec,
  appSpec,
  workerSpec,
];

/** docs/cli.md: written by `npm run docs:cli`; a unit test fails when the file differs. */
export function cliMarkdown(): string {
  return [
    '# Command line',
    '',
    '<!-- Generated from src/cli/specs/ by `npm run docs:cli`; edit the definitions, not this file. -->',
    '',
    '`effectcraft-cli <command> --help` prints the same text for one command.',
    '',
    ...SUBCOMMAND_SPECS.map((s) => `- [${s.name}](#${s.name}): ${s.summary}`),
    '',
    ...SUBCOMMAND_SPECS.map(markdownSection),
  ].join('\n');
}
