/**
 * Command definitions: one object per command holds everything every surface needs (MCP tools, the bridge,
 * the CLI, scripts, confinement): schema, file-path declarations, enabled predicate, annotations, run function.
 */
import type { z } from 'zod';
import type { Draft } from 'immer';
import type { Project } from './model.js';
import type { EnginePorts } from './ports.js';
import type { ExecuteResult } from './engine.js';

export type PathAccess = 'read' | 'write';

/** MCP tool annotations, mirrored per command so `command_list` can tell agents what a command does. */
export interface CommandAnnotations {
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

/** What a command can see of the session without running: enough to decide `enabled` and what it writes. */
export interface SessionView {
  readonly doc: Project;
  readonly projectPath: string | null;
  readonly canUndo: boolean;
  readonly canRedo: boolean;
  /** The document differs from its file (or, never saved, from the new project it began as). */
  readonly unsaved: boolean;
}

export interface HistoryControl {
  /** Undoes one step; returns its label, or null when there was nothing to undo. */
  undo(): string | null;
  redo(): string | null;
}

/** A place in the document: keys from its root, e.g. `['items', 0, 'layers']`. */
export type DocPath = readonly (string | number)[];

/**
 * What a running command gets. Only `update`, `insert` and `remove` change the document, and all the changes of
 * one run are one undo step.
 */
export interface CommandContext extends SessionView {
  update(recipe: (draft: Draft<Project>) => void): void;
  /**
   * Inserts `value` at `index` of the array at `path`, recorded as one change. Inserting with `update` (unshift,
   * splice) records a change for every element after `index`, so the undo step would grow with the array.
   */
  insert(path: DocPath, index: number, value: unknown): void;
  /** Removes the element at `index` of the array at `path`, recorded as one change (see `insert`). */
  remove(path: DocPath, index: number): void;
  /**
   * Replaces the whole project (new/open/close): clears undo history. `digest`: of the bytes `path` held when
   * read (project-stamp.ts), so a later save can tell whether someone else wrote the file since.
   */
  replaceProject(doc: Project, path: string | null, digest?: string): void;
  /** The project was written to `path`; `digest` is of the bytes written. */
  setProjectPath(path: string, digest: string): void;
  /** The digest of the project file's bytes as this session last read or wrote them; null without a file. */
  readonly projectFileDigest: string | null;
  readonly history: HistoryControl;
  readonly ports: EnginePorts;
  /** Font families text layers may use, or null when the session has no renderer to ask. */
  readonly fontFamilies: readonly string[] | null;
  /** The characters of `text` the bundled fonts cannot draw. */
  missingGlyphs(text: string): string[];
  readonly signal: AbortSignal;
  progress(info: ProgressInfo): void;
  warn(message: string): void;
  /** Runs another command (used by scripts); each nested edit is its own undo step. */
  execute(id: string, params: unknown, signal?: AbortSignal): Promise<ExecuteResult>;
}

export interface ProgressInfo {
  progress: number;
  total?: number;
  message?: string;
}

/**
 * What surfaces need to know about a command beyond its schema and file declarations. Surfaces read these
 * (MCP tools, the bridge, the CLI); none of them matches command ids.
 */
export interface CommandTraits {
  /** Can take minutes (renders, previews, scripts): long request timeouts, progress where the surface has it. */
  longRunning: boolean;
  /**
   * Starts a background job that outlives the edit order (a render of a snapshot). `waitParam` names its boolean
   * param that makes the call wait for the job (waiting is the default); surfaces that cannot stream progress
   * (the bridge) start it with that param false.
   */
  backgroundJob: { waitParam: string } | null;
  /** Once it has started (its snapshot taken), later calls on the same connection may run while it goes on. */
  detachesFromCallOrder: boolean;
}

export const DEFAULT_TRAITS: CommandTraits = {
  longRunning: false,
  backgroundJob: null,
  detachesFromCallOrder: false,
};

/** A command's traits with every default filled in. */
export function traitsOf(command: Pick<AnyCommand, 'traits'> | undefined): CommandTraits {
  return { ...DEFAULT_TRAITS, ...command?.traits };
}

export interface CommandDefinition<P = unknown, R = unknown> {
  id: string;
  title: string;
  category: string;
  description: string;
  params: z.ZodType<P>;
  /**
   * A short, valid call (its params), shown by command_list and docs/commands.md so an agent sees the shape
   * of a call, not only its schema. Type-checked against the schema's input; a test runs every shipped command's
   * example through `prepare` (optional only so that tests can define small commands without one).
   */
  example?: Record<string, unknown>;
  /** Params that are file paths. Keys are dotted paths; `[]` steps into arrays, e.g. `overflow[].dir`. */
  pathParams: Readonly<Record<string, PathAccess>>;
  /** Files this command writes that are not params (save targets, render outputs); checked before it runs. */
  writesFiles?: (view: SessionView, params: P) => string[];
  /** Files this command will read that are not params (e.g. footage read by a render). */
  readsFiles?: (view: SessionView, params: P) => string[];
  /** null when the command can run; otherwise why not, phrased as a remedy. */
  enabled?: (view: SessionView) => string | { reason: string; remedy: string } | null;
  annotations: CommandAnnotations;
  /** True when it changes the document (one undo step) and must not interleave with other edits. */
  mutates: boolean;
  /**
   * Takes its turn in the edit order like an edit, though it changes no document: a save must write the document
   * as it is between edits, never in the middle of another caller's open group (whose steps may yet roll back).
   */
  ordered?: boolean;
  /** Runs code or opens files outside the engine's model; refused while confined. */
  unconfinable?: boolean;
  /** What surfaces must know to serve it (see CommandTraits); omitted ones take DEFAULT_TRAITS. */
  traits?: Partial<CommandTraits>;
  run(ctx: CommandContext, params: P): Promise<R> | R;
}

// The catalog holds commands of many param types; `any` here is the erasure point of that heterogeneity.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyCommand = CommandDefinition<any, unknown>;

/** Identity helper that infers P from the schema, so each command's run function is fully typed. */
export function defineCommand<S extends z.ZodType, R>(
  def: Omit<CommandDefinition<z.infer<S>, R>, 'params' | 'example'> & { params: S; example?: z.input<S> },
): CommandDefinition<z.infer<S>, R> {
  return def as CommandDefinition<z.infer<S>, R>;
}

export const READ_ONLY: CommandAnnotations = {
  readOnlyHint: true,
  destructiveHint: false,
  idempotentHint: true,
  openWorldHint: false,
};
export const EDIT: CommandAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};
export const DESTRUCTIVE_EDIT: CommandAnnotations = { ...EDIT, destructiveHint: true };
export const IDEMPOTENT_EDIT: CommandAnnotations = { ...EDIT, idempotentHint: true };

export interface PathEntry {
  /** Dotted param path with indices, e.g. `overflow.1.dir`. */
  param: string;
  path: string;
  access: PathAccess;
}

/** The concrete file paths a command's declared path params hold, for checking before it runs. */
export function declaredPaths(command: AnyCommand, params: unknown): PathEntry[] {
  const out: PathEntry[] = [];
  for (const [spec, access] of Object.entries(command.pathParams)) {
    const walk = (value: unknown, steps: string[], at: string) => {
      if (steps.length === 0) {
        if (typeof value === 'string') out.push({ param: at, path: value, access });
        return;
      }
      const [step, ...rest] = steps as [string, ...string[]];
      if (step.endsWith('[]')) {
        const list = (value as Record<string, unknown> | undefined)?.[step.slice(0, -2)];
        if (Array.isArray(list))
          list.forEach((v, i) => walk(v, rest, `${at ? at + '.' : ''}${step.slice(0, -2)}.${i}`));
      } else if (value && typeof value === 'object') {
        walk((value as Record<string, unknown>)[step], rest, `${at ? at + '.' : ''}${step}`);
      }
    };
    walk(params, spec.split('.'), '');
  }
  return out;
}
