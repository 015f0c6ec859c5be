/** Dispatches `effectcraft-cli <subcommand>`; maps usage errors to exit 2 with a message, never a stack. */
import { own } from '../engine/own.js';
import { appCommand } from './app-cmd.js';
import { commandsCommand } from './commands-cmd.js';
import { mcpCommand } from './mcp-cmd.js';
import { renderCommand } from './render-cmd.js';
import { EXIT, printable, UsageError } from './usage.js';
import { packageVersion } from './version.js';

type Sub = { summary: string; run: (args: string[]) => Promise<number> };

/** Subcommands; each lives in its own file so a feature adds one line here. */
const SUBCOMMANDS: Record<string, Sub> = {
  commands: { summary: 'print the command catalog', run: commandsCommand },
  mcp: { summary: 'run the MCP server for agents (stdio, or --http PORT)', run: mcpCommand },
  app: { summary: 'serve a session over the control channel (for mcp --bridge)', run: appCommand },
  render: { summary: "render a project's render queue (progress, Ctrl-C cancels)", run: renderCommand },
};

export function registerSubcommand(name: string, sub: Sub): void {
  SUBCOMMANDS[name] = sub;
}

function help(): string {
  const lines = Object.entries(SUBCOMMANDS).map(([name, s]) => `  ${name.padEnd(10)} ${s.summary}`);
  return `effectcraft-cli ${packageVersion()}: a headless motion-graphics engine for agents and pipelines.

Usage: effectcraft-cli <command> [options]

Commands:
${lines.join('\n')}

Options:
  -h, --help     show help (also: effectcraft-cli <command> --help)
  -v, --version  print the version

Docs: README.md and docs/ in the package.`;
}

export async function main(argv: string[]): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
    process.stdout.write(help() + '\n');
    return first === undefined ? EXIT.usage : EXIT.ok;
  }
  if (first === '-v' || first === '--version') {
    process.stdout.write(packageVersion() + '\n');
    return EXIT.ok;
  }
  // `effectcraft-cli constructor` is an unknown command, not Object.prototype.constructor.
  const sub = own(SUBCOMMANDS, first);
  if (!sub) {
    process.stderr.write(
      `effectcraft-cli: unknown ${first.startsWith('-') ? 'option' : 'command'} "${printable(first)}". Commands: ${Object.keys(SUBCOMMANDS).join(', ')}. See --help.\n`,
    );
    return EXIT.usage;
  }
  try {
    return await sub.run(rest);
  } catch (err) {
    // node:util parseArgs throws TypeErrors with ERR_PARSE_ARGS_* codes for unknown flags and missing values.
    const code = (err as { code?: string }).code;
    if (err instanceof UsageError || code?.startsWith('ERR_PARSE_ARGS')) {
      process.stderr.write(
        `effectcraft-cli ${first}: ${printable((err as Error).message)}\nSee: effectcraft-cli ${first} --help\n`,
      );
      return EXIT.usage;
    }
    throw err;
  }
}
