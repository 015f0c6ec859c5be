/**
 * The closed set of error codes every EffectCraft surface speaks (engine, MCP, bridge, CLI).
 * Clients branch on `code`; `message` says what happened and `remediation` what to do next.
 */
import { MCP_WORDS, type Remedy, type SurfaceWords } from './surface-words.js';

export type { Remedy } from './surface-words.js';

export const ErrorCodes = {
  bad_argument: 'bad_argument',
  unknown_command: 'unknown_command',
  not_found: 'not_found',
  ambiguous_name: 'ambiguous_name',
  command_disabled: 'command_disabled',
  no_such_file: 'no_such_file',
  unsupported_format: 'unsupported_format',
  invalid_project: 'invalid_project',
  io_error: 'io_error',
  missing_dependency: 'missing_dependency',
  not_configured: 'not_configured',
  timeout: 'timeout',
  cancelled: 'cancelled',
  refused_while_confined: 'refused_while_confined',
  path_outside_roots: 'path_outside_roots',
  render_in_progress: 'render_in_progress',
  /** Another caller's group (an atomic batch, a bridge group) held the edit order longer than this edit could wait. */
  busy: 'busy',
  render_failed: 'render_failed',
  /** A save would overwrite a project file another program or session wrote since this session read or saved it. */
  file_changed: 'file_changed',
  tool_failed: 'tool_failed',
  /** A script_ui script threw or timed out in the studio page. */
  script_error: 'script_error',
  /** The app behind `mcp --bridge` is not running, refused the connection, or went away mid-call. */
  app_unavailable: 'app_unavailable',
} as const;

export type ErrorCode = (typeof ErrorCodes)[keyof typeof ErrorCodes];

/** The wire shape of an error: what a client sees, never a stack trace. */
export interface ErrorInfo {
  code: ErrorCode;
  message: string;
  remediation: string;
}

/** A remedy's text for `words` (default: MCP's). */
export function remedyText(remedy: Remedy, words: SurfaceWords = MCP_WORDS): string {
  return typeof remedy === 'string' ? remedy : remedy(words);
}

/** An expected failure raised inside a command; `execute` turns it into an `ErrorInfo` value. */
export class EngineError extends Error {
  readonly code: ErrorCode;
  readonly #remedy: Remedy;
  readonly #worded: Remedy;

  /** `message` may be worded for the surface too (a param named by its CLI flag); `.message` is MCP's words. */
  constructor(code: ErrorCode, message: Remedy, remediation: Remedy) {
    super(remedyText(message));
    this.name = 'EngineError';
    this.code = code;
    this.#remedy = remediation;
    this.#worded = message;
  }

  /** The remedy in MCP's words (what crosses threads and the bridge). */
  get remediation(): string {
    return remedyText(this.#remedy);
  }

  /** The wire shape, the remedy worded for the surface that shows it (default: MCP). */
  toInfo(words: SurfaceWords = MCP_WORDS): ErrorInfo {
    return {
      code: this.code,
      message: remedyText(this.#worded, words),
      remediation: remedyText(this.#remedy, words),
    };
  }
}

export function isEngineError(value: unknown): value is EngineError {
  return value instanceof EngineError;
}

/** Shorthand for the most common expected failure. */
export function badArgument(message: string, remediation: Remedy): EngineError {
  return new EngineError('bad_argument', message, remediation);
}

/** Maps a Node fs error on `path` to a client-facing error; unknown errors become io_error. */
export function fsError(err: unknown, path: string, action: string): EngineError {
  const code = (err as NodeJS.ErrnoException | undefined)?.code;
  if (code === 'ENOTDIR') {
    return new EngineError(
      'no_such_file',
      `Cannot ${action} "${path}": a part of the path is a file where a folder should be.`,
      'Check the path: every part above the last must be a folder (a file of that name is in the way).',
    );
  }
  if (code === 'ENOENT') {
    return new EngineError(
      'no_such_file',
      `Cannot ${action} "${path}": no such file or directory.`,
      'Check the path: the file (and every folder above it) must exist.',
    );
  }
  if (code === 'EACCES' || code === 'EPERM') {
    // A read is mended on the file (its permissions), a write by going elsewhere or granting it.
    const reading = /^(read|import|open)\b/.test(action);
    return new EngineError(
      'io_error',
      `Cannot ${action} "${path}": permission denied.`,
      reading
        ? 'Give this user read access to the file (chmod, chown), or use a copy it can read.'
        : 'Write somewhere this user may write, or give it write access to that folder (chmod, chown).',
    );
  }
  if (code === 'ENOSPC' || code === 'EDQUOT') {
    return new EngineError(
      'io_error',
      `Cannot ${action} "${path}": the disk is full.`,
      'Free space on that volume or write somewhere else.',
    );
  }
  if (code === 'EROFS') {
    return new EngineError(
      'io_error',
      `Cannot ${action} "${path}": the volume is read-only.`,
      'Write to a writable volume (or remount this one read-write).',
    );
  }
  if (code === 'EISDIR') {
    return new EngineError(
      'bad_argument',
      `Cannot ${action} "${path}": it is a directory.`,
      'Give the path of a file.',
    );
  }
  if (code === 'ELOOP') {
    return new EngineError(
      'path_outside_roots',
      `Cannot ${action} "${path}": it is a symbolic link.`,
      'Write to a real file path, not a symbolic link.',
    );
  }
  return new EngineError(
    'io_error',
    `Cannot ${action} "${path}" (${code ?? 'unknown error'}).`,
    'Check the path and try again.',
  );
}
