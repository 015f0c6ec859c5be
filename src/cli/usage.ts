import { cliRemedy } from './cli-words.js';

/** CLI usage errors: a clear message and exit code 2, never a stack trace. */
export class UsageError extends Error {
  /** What to do, where the flag's --help is not enough (a data file that is missing or empty). */
  readonly remediation: string | undefined;

  constructor(message: string, remediation?: string) {
    super(message);
    this.name = 'UsageError';
    this.remediation = remediation;
  }
}

/**
 * Whether `err` is a usage error, by name: a bundled subcommand (still-cmd.bundle.js) throws its own copy of the
 * class, which `instanceof` against this one does not recognise.
 */
export function isUsageError(err: unknown): err is UsageError {
  return err instanceof Error && err.name === 'UsageError';
}

/** `incomplete`: inspect --strict listed a project whose footage is missing (files or sequence frames). */
export const EXIT = { ok: 0, failed: 1, usage: 2, incomplete: 3, cancelled: 130 } as const;

/**
 * A failure as a pipeline reads it when it asked for --json: one JSON object on stdout, `{error: {code, message,
 * remediation}, exitCode}`, besides the words on stderr (stdout would otherwise be empty, leaving a script with an
 * exit code and nothing to parse). `argv` is the command's own: --json is looked for there, so a command line
 * that failed to parse still gets it.
 */
/** A command's failure: its words and remedy on stderr, and with --json the same on stdout (jsonFailure). */
export function failWith(
  command: string,
  argv: readonly string[],
  error: { code: string; message: string; remediation: string },
  exitCode: number,
): number {
  const remediation = cliRemedy(error.remediation);
  process.stderr.write(`effectcraft-cli ${command}: ${failureText({ ...error, remediation })}`);
  return jsonFailure(argv, { ...error, remediation }, exitCode);
}

/**
 * A failure as stderr shows it: the message with its code (what --json and MCP call it, what a log search or a
 * bug report can quote), and the remedy indented on the next line.
 */
export function failureText(error: { code: string; message: string; remediation: string }): string {
  return `${printable(error.message)} [${error.code}]\n  ${printable(error.remediation)}\n`;
}

export function jsonFailure(
  argv: readonly string[],
  error: { code: string; message: string; remediation: string },
  exitCode: number,
): number {
  if (argv.includes('--json'))
    process.stdout.write(
      JSON.stringify(
        {
          error: { code: error.code, message: error.message, remediation: cliRemedy(error.remediation) },
          exitCode,
        },
        null,
        2,
      ) + '\n',
    );
  return exitCode;
}

/** A port flag: a whole number 0-65535 (0 picks a free port), or the fallback when absent. */
export function parsePort(text: string | undefined, flag: string, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 0 || n > 65535)
    throw new UsageError(`${flag} must be a port number 0-65535; got "${text}".`);
  return n;
}

/** A millisecond flag: a whole number >= 10, or undefined when absent. */
export function parseMs(text: string | undefined, flag: string): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!Number.isInteger(n) || n < 10)
    throw new UsageError(`${flag} must be a whole number of milliseconds >= 10.`);
  return n;
}

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** Text safe to print on a terminal: control characters (escape sequences from file names) become "?". */
export function printable(text: string): string {
  return text.replace(CONTROL, '?');
}

/** A flag whose value is one of `choices`, or undefined when absent. */
export function parseChoice<T extends string>(
  text: string | undefined,
  flag: string,
  choices: readonly T[],
): T | undefined {
  if (text === undefined) return undefined;
  if ((choices as readonly string[]).includes(text)) return text as T;
  throw new UsageError(`${flag} must be one of ${choices.join(', ')}; got "${text}".`);
}

/** A whole-number flag from `min` to `max`, or undefined when absent. */
export function parseWhole(
  text: string | undefined,
  flag: string,
  min: number,
  max: number,
  range = `from ${min} to ${max}`,
): number | undefined {
  if (text === undefined) return undefined;
  const n = Number(text);
  if (!/^\d+$/.test(text.trim()) || n < min || n > max)
    throw new UsageError(`${flag} must be a whole number ${range}; got "${text}".`);
  return n;
}
