/**
 * Dispatches `effectcraft-cli <subcommand>`; maps usage errors to exit 2 with a message, never a stack.
 * A subcommand's module is imported only when it runs: `still` must not pay for loading the MCP server, the
 * studio or the bridge.
 */
import { own } from '../engine/own.js';
import { didYouMean, nearNames } from './near-names.js';
import { SUBCOMMAND_SPECS } from './specs/index.js';
import type * as StillCmd from './still-cmd.js';
import { EXIT, isUsageError, jsonFailure, printable } from './usage.js';
import { packageVersion } from './version.js';

type Run = (args: string[]) => Promise<number>;

/** A variable, so the compiler does not look for a source of the built bundle. */
const STILL_BUNDLE = './still-cmd.bundle.js';
type StillModule = typeof StillCmd;

/** Each subcommand's runner, loaded on demand; its flags and help are in specs/. */
const RUNNERS: Record<string, () => Promise<Run>> = {
  render: () => import('./render-cmd.js').then((m) => m.renderCommand),
  // The build bundles `still` into one module (still-bundle.config.ts): a cold start links one file. From the
  // sources (tests) there is no bundle, and the module itself is loaded.
  still: () =>
    (import(STILL_BUNDLE) as Promise<StillModule>)
      .catch((err: { code?: string }) => {
        if (err?.code !== 'ERR_MODULE_NOT_FOUND') throw err;
        return import('./still-cmd.js');
      })
      .then((m) => m.stillCommand),
  inspect: () => import('./inspect-cmd.js').then((m) => m.inspectCommand),
  commands: () => import('./commands-cmd.js').then((m) => m.commandsCommand),
  mcp: () => import('./mcp-cmd.js').then((m) => m.mcpCommand),
  app: () => import('./app-cmd.js').then((m) => m.appCommand),
  worker: () => import('./worker-cmd.js').then((m) => m.workerCommand),
};

function help(): string {
  const lines = SUBCOMMAND_SPECS.map((s) => `  ${s.name.padEnd(10)} ${s.summary}`);
  return `effectcraft-cli ${packageVersion()}: a headless motion-graphics engine for agents and pipelines.

Usage: effectcraft-cli <command> [options]

Commands:
${lines.join('\n')}

Options:
  -h, --help     show help (also: effectcraft-cli <command> --help)
  -v, --version  print the version

Docs: README.md and docs/ in the package (docs/cli.md: every command and flag).`;
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
  const load = own(RUNNERS, first);
  if (!load) {
    const kind = first.startsWith('-') ? 'option' : 'command';
    const near = kind === 'command' ? didYouMean(nearNames(first, Object.keys(RUNNERS))) : '';
    const message = `Unknown ${kind} "${first}".${near}`;
    const remediation = `Commands: ${Object.keys(RUNNERS).join(', ')}. See --help.`;
    process.stderr.write(`effectcraft-cli: ${printable(message)} ${remediation}\n`);
    // A pipeline that asked for --json reads the failure from stdout, as every subcommand's usage errors give it.
    return jsonFailure(rest, { code: 'bad_argument', message, remediation }, EXIT.usage);
  }
  try {
    return await (
      await load()
    )(rest);
  } catch (err) {
    // node:util parseArgs throws TypeErrors with ERR_PARSE_ARGS_* codes for unknown flags and missing values.
    const code = (err as { code?: string }).code;
    if (isUsageError(err) || code?.startsWith('ERR_PARSE_ARGS')) {
      const message = parseArgsMessage(err as Error, code, first);
      const help = `See: effectcraft-cli ${first} --help`;
      // By shape: a bundled subcommand throws its own copy of the class (isUsageError).
      const own = (err as { remediation?: unknown }).remediation;
      const remediation = typeof own === 'string' ? `${own} ${help}` : help;
      process.stderr.write(`effectcraft-cli ${first}: ${printable(message)}\n${printable(remediation)}\n`);
      return jsonFailure(rest, { code: 'bad_argument', message, remediation }, EXIT.usage);
    }
    throw err;
  }
}

/**
 * node:util parseArgs' words, made ours: its unknown-option message goes on about positional arguments after
 * "--" (with an unbalanced quote), and a value that starts with "-" (--time -1) reads "argument is ambiguous".
 */
function parseArgsMessage(err: Error, code: string | undefined, command: string): string {
  const option = /'(-[^']*)'/.exec(err.message)?.[1];
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION' && option)
    return `Unknown option '${option}'.${didYouMean(nearFlags(option, command))}`;
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE' && option && /ambiguous/.test(err.message))
    return `Option '${option}' takes a value; one that starts with "-" is written ${option.split(/[ ,]/).at(-1)}=-VALUE.`;
  return err.message;
}

/** The flags of `command` that the unknown `option` may have meant (`--itme` → `--item`); long options only. */
function nearFlags(option: string, command: string): string[] {
  const spec = SUBCOMMAND_SPECS.find((s) => s.name === command);
  if (!spec || !option.startsWith('--')) return [];
  const flags = Object.entries(spec.flags)
    .filter(([, f]) => !f.hidden)
    .map(([name]) => name);
  return nearNames(option.slice(2), [...flags, 'help']).map((name) => `--${name}`);
}
