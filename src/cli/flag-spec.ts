/**
 * The one definition of a subcommand's flags: name, type, value name, help text and default. The parser
 * options (node:util parseArgs), `effectcraft-cli <command> --help` and docs/cli.md are all generated from it,
 * so a flag cannot be parsed without being documented, nor documented differently in two places.
 */
import { parseArgs } from 'node:util';

export interface FlagSpec {
  type: 'string' | 'boolean';
  /** The value's name in help (`--concurrency N`); string flags only. */
  value?: string;
  help: string;
  /** What happens when the flag is absent, as shown in help; the code applies it. */
  default?: string;
  multiple?: boolean;
  short?: string;
  /** Test knobs: parsed, never documented. */
  hidden?: boolean;
  /** The engine param the flag sets (`encoding.crf`): engine remedies then name the flag in the CLI. */
  param?: string;
}

export type FlagSpecs = Record<string, FlagSpec>;

export interface CommandSpec<F extends FlagSpecs = FlagSpecs> {
  name: string;
  /** One line for `effectcraft-cli --help`. */
  summary: string;
  /** Usage lines, without the leading `effectcraft-cli `. */
  usage: string[];
  /** What the command does (paragraphs separated by blank lines). */
  description: string;
  /** Whether the command takes positionals (PROJECT). */
  positionals: boolean;
  flags: F;
  /** Text after the flags: exit codes, signals, where the docs are. */
  notes?: string;
}

/** Keeps the literal flag names and types, so parsed values are typed from the definition. */
export function defineSubcommand<F extends FlagSpecs>(spec: CommandSpec<F>): CommandSpec<F> {
  return spec;
}

type FlagValue<S extends FlagSpec> = S['type'] extends 'boolean'
  ? boolean
  : S['multiple'] extends true
    ? string[]
    : string;

export type FlagValues<F extends FlagSpecs> = { [K in keyof F]?: FlagValue<F[K]> } & { help?: boolean };

/** Parses `args` with the definition's flags (plus -h/--help); unknown flags throw ERR_PARSE_ARGS_* errors. */
export function parseFlags<F extends FlagSpecs>(
  spec: CommandSpec<F>,
  args: string[],
): { values: FlagValues<F>; positionals: string[] } {
  const options = Object.fromEntries(
    Object.entries(spec.flags).map(([name, f]) => [
      name,
      { type: f.type, ...(f.multiple && { multiple: true }), ...(f.short && { short: f.short }) },
    ]),
  );
  const { values, positionals } = parseArgs({
    args,
    options: { ...options, help: { type: 'boolean', short: 'h' } },
    strict: true,
    allowPositionals: spec.positionals,
  });
  return { values: values as FlagValues<F>, positionals };
}

const WIDTH = 100;

/** Breaks `text` into lines of at most `width` characters, continuation lines indented by `indent`. */
export function wrap(text: string, width: number, indent: string): string {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else line = line ? `${line} ${word}` : word;
  }
  return [...lines, line].join(`\n${indent}`);
}

const shown = (spec: CommandSpec) => Object.entries(spec.flags).filter(([, f]) => !f.hidden);

function flagLabel(name: string, f: FlagSpec): string {
  const short = f.short ? `-${f.short}, ` : '';
  return `${short}--${name}${f.value ? ` ${f.value}` : ''}`;
}

function flagHelp(f: FlagSpec): string {
  const more = [f.multiple ? 'repeatable' : '', f.default ? `default: ${f.default}` : ''].filter(Boolean);
  return more.length ? `${f.help} (${more.join('; ')})` : f.help;
}

/** `effectcraft-cli <command> --help`. */
export function helpText(spec: CommandSpec): string {
  const usage = spec.usage.map((u, i) => `${i ? '       ' : 'Usage: '}effectcraft-cli ${u}`);
  const flags = shown(spec);
  // The widest label, -h, --help included (a command with one short flag printed "-h, --helpshow this help").
  const widest = Math.max('-h, --help'.length, ...flags.map(([n, f]) => flagLabel(n, f).length));
  const column = Math.min(32, widest + 4);
  const indent = ' '.repeat(column);
  const rows = flags.map(([name, f]) => {
    const label = `  ${flagLabel(name, f)}`;
    const lead = label.length + 2 <= column ? label.padEnd(column) : `${label}\n${indent}`;
    return lead + wrap(flagHelp(f), WIDTH - column, indent);
  });
  const description = spec.description
    .split('\n\n')
    .map((p) => wrap(p, WIDTH, ''))
    .join('\n\n');
  return [
    usage.join('\n'),
    '',
    description,
    '',
    'Options:',
    ...rows,
    '  -h, --help'.padEnd(column) + 'show this help',
    ...(spec.notes ? ['', spec.notes] : []),
  ].join('\n');
}

const cell = (text: string) => text.replace(/\|/g, '\\|');

/** One subcommand's section of docs/cli.md. */
export function markdownSection(spec: CommandSpec): string {
  const rows = shown(spec).map(
    ([name, f]) =>
      `| \`${flagLabel(name, f)}\` | ${cell(f.help)}${f.multiple ? ' (repeatable)' : ''} | ${f.default ? cell(f.default) : ''} |`,
  );
  return [
    `## ${spec.name}`,
    '',
    '```',
    ...spec.usage.map((u) => `effectcraft-cli ${u}`),
    '```',
    '',
    spec.description,
    '',
    '| Flag | What it does | Default |',
    '| --- | --- | --- |',
    ...rows,
    ...(spec.notes ? ['', spec.notes] : []),
    '',
  ].join('\n');
}

/** Parses `args`; on -h/--help prints the command's help and returns null (the command then exits 0). */
export function parseOrHelp<F extends FlagSpecs>(
  spec: CommandSpec<F>,
  args: string[],
): { values: FlagValues<F>; positionals: string[] } | null {
  const parsed = parseFlags(spec, args);
  if (!parsed.values.help) return parsed;
  process.stdout.write(helpText(spec) + '\n');
  return null;
}
