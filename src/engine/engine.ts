/**
 * The engine: holds the current document and its undo history, and runs every change through
 * `execute(id, params)`. Documents are immutable (immer, auto-frozen): a render job keeps the reference
 * it started with as its snapshot, at no cost.
 */
import { enablePatches } from 'immer';
import { z } from 'zod';
import { isAbsolute } from 'node:path';
import {
  declaredPaths,
  traitsOf,
  type AnyCommand,
  type CommandTraits,
  type CommandContext,
  type ProgressInfo,
  type SessionView,
} from './catalog.js';
import { checkEdit } from './edit-check.js';
import { EditOrder } from './edit-order.js';
import { EngineError, isEngineError, type ErrorInfo } from './errors.js';
import { foldSteps, revertSteps, UndoHistory, type HistoryMark, type StepSummary } from './history.js';
import { emptyProject, type Project } from './model.js';
import { Pacer } from './pacer.js';
import type { EnginePorts } from './ports.js';
import { StepRecorder } from './step-recorder.js';
import type { IssuedIds } from './resolve.js';
import { MCP_WORDS, type SurfaceWords } from './surface-words.js';
import { parseParams } from './validation.js';

enablePatches();

export type ExecuteResult<R = unknown> =
  { ok: true; result: R; warnings?: string[] } | { ok: false; error: ErrorInfo };

export interface ExecuteOptions {
  signal?: AbortSignal;
  onProgress?: (info: ProgressInfo) => void;
  /** Runs the command as a step of this open group: it holds the edit order, so the step does not queue. */
  group?: EditGroup;
  /** Who asked (the studio's Activity panel shows it); commands a command runs itself are not reported again. */
  actor?: Actor;
}

/** Who made a change: an agent, a studio page, a pipeline, the app. Opaque to the engine; passed through. */
export interface Actor {
  kind: 'agent' | 'page' | 'pipeline' | 'app';
  name: string;
}

/** An open group (from `beginGroup`): pass it as `ExecuteOptions.group`; end it once with `endGroup`. */
export interface EditGroup {
  readonly id: string;
  readonly label: string;
}

export interface GroupOptions {
  signal?: AbortSignal;
  /** How long to wait for the edit order (default: the engine's editWaitMs). */
  waitMs?: number;
}

/** `committed`: the group's edits were kept (false: rolled back). Not ok: it never began (busy, cancelled). */
export type GroupResult = { ok: true; committed: boolean } | { ok: false; error: ErrorInfo };

/** Checked after params validate and before the command runs (confinement plugs in here). */
export type CommandGuard = (command: AnyCommand, params: unknown, view: SessionView) => ErrorInfo | null;

export interface EngineOptions {
  commands: readonly AnyCommand[];
  ports: EnginePorts;
  /** Font families the renderer has; text commands refuse others at edit time instead of at render time. */
  fontFamilies?: readonly string[];
  /** The characters of a text the bundled fonts cannot draw (text commands warn about them at edit time). */
  missingGlyphs?: (text: string) => string[];
  guard?: CommandGuard;
  /** Where unexpected failures are described; never shown to clients. */
  logError?: (message: string) => void;
  /** Undo steps kept; older ones are dropped. */
  historyLimit?: number;
  /** How long an edit or a group waits for the edit order before it fails with `busy` (default 15 s). */
  editWaitMs?: number;
  /** How remedies name lookups and params for this engine's readers (default: MCP tools; the CLI its own). */
  words?: SurfaceWords;
}

/** The default bound on waiting for the edit order: below the bridge's 30 s request timeout, so `busy` arrives. */
export const DEFAULT_EDIT_WAIT_MS = 15_000;

/** The group that holds the edit order, and what its rollback needs. */
interface OpenGroup {
  readonly handle: EditGroup;
  readonly release: () => void;
  readonly start: HistoryMark & {
    doc: Project;
    path: string | null;
    digest: string | null;
    saved: Project;
    opening: number;
  };
  /** Index in the undo history where the group's own steps begin (0 once it replaced the project). */
  depth: number;
  replaced: boolean;
  /** The group's steps take turns among themselves too. */
  steps: Promise<unknown>;
  ended: boolean;
}

export interface CatalogEntry {
  id: string;
  title: string;
  category: string;
  description: string;
  enabled: boolean;
  disabledReason?: string;
  annotations: AnyCommand['annotations'];
  pathParams: AnyCommand['pathParams'];
  traits: CommandTraits;
  /** A short valid call's params (see CommandDefinition.example), listed with the schema. */
  example?: Record<string, unknown>;
  params?: unknown;
}

export interface ListOptions {
  /** Text in the id, title, category or description (any case). */
  filter?: string;
  /** One category, e.g. "Layer" (any case). */
  category?: string;
  /** Only these command ids. */
  ids?: string[];
  enabledOnly?: boolean;
  schemas?: boolean;
}

export type EngineEvent =
  /** The document changed; `revision` counts every change since the engine was made. */
  | { type: 'documentChanged'; label: string; revision: number }
  /**
   * The project was written to its file (a save, a save as): the document is unchanged (no new revision), but
   * the session's path and its unsaved state changed, which views showing "unsaved changes" must learn.
   */
  | { type: 'projectSaved'; path: string; revision: number }
  /**
   * A command that edits or renders was called from outside (not by another command): its outcome, for an
   * activity log. Reads and previews are not reported.
   */
  | {
      type: 'commandApplied';
      id: string;
      title: string;
      actor: Actor | undefined;
      /** The open group it was a step of (a drag: many steps, one undo step), and that group's label. */
      group: string | undefined;
      groupLabel?: string;
      result: ExecuteResult;
    };

export class Engine {
  #doc: Project = emptyProject();
  /**
   * The document as its file holds it (last opened or saved; a new project counts as saved until edited):
   * documents are immutable, so any other document object is unsaved work.
   */
  #saved: Project = this.#doc;
  #path: string | null = null;
  /** Of the bytes #path held when this engine last read or wrote it (the stale-writer check, project-stamp.ts). */
  #digest: string | null = null;
  /** The ids handed out for this project, kept through undo and rollbacks (resolve.ts, IssuedIds). */
  #ids: IssuedIds = { next: 1 };
  readonly #history: UndoHistory;
  readonly #commands: Map<string, AnyCommand>;
  readonly #options: EngineOptions;
  readonly #listeners = new Set<(event: EngineEvent) => void>();
  // Edits (and groups) take turns in one queue so no edit is based on a stale document and none lands inside
  // another caller's group; reads and renders don't wait.
  readonly #order = new EditOrder();
  #group: OpenGroup | null = null;
  #groupSeq = 0;
  #revision = 0;
  #opening = 0;
  readonly #pacer = new Pacer();

  constructor(options: EngineOptions) {
    this.#options = options;
    this.#commands = new Map(options.commands.map((c) => [c.id, c]));
    this.#history = new UndoHistory(options.historyLimit ?? 500);
  }

  get document(): Project {
    return this.#doc;
  }

  get projectPath(): string | null {
    return this.#path;
  }

  /** Increases by one at every document change (an edit, undo, redo, a replaced project, a rollback). */
  get revision(): number {
    return this.#revision;
  }

  /**
   * Which project is open: increases by one each time it is replaced (project.new, project.open, project.close),
   * and comes back with a rolled-back group's project. What is kept about a document outside it (the render
   * queue's item statuses) belongs to one opening: ids start again at 1 in every project, so another project's
   * rq_3 is not this one's.
   */
  get opening(): number {
    return this.#opening;
  }

  get view(): SessionView {
    return {
      doc: this.#doc,
      projectPath: this.#path,
      canUndo: this.#history.canUndo,
      canRedo: this.#history.canRedo,
      unsaved: this.#doc !== this.#saved,
    };
  }

  get ports(): EnginePorts {
    return this.#options.ports;
  }

  /** The undo steps, oldest first, with the number of changes each holds (what it costs to keep). */
  undoSteps(): StepSummary[] {
    return this.#history.summary();
  }

  command(id: string): AnyCommand | undefined {
    return this.#commands.get(id);
  }

  commands(): AnyCommand[] {
    return [...this.#commands.values()];
  }

  on(listener: (event: EngineEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Lists the catalog, optionally filtered by text (id, title, category, description), category, ids and
   * enabled state. Schemas are made only for the commands listed: they are most of the catalog's size.
   */
  list(options: ListOptions = {}): CatalogEntry[] {
    const needle = options.filter?.toLowerCase();
    const category = options.category?.toLowerCase();
    const ids = options.ids && new Set(options.ids);
    const view = this.view;
    const out: CatalogEntry[] = [];
    for (const c of this.#commands.values()) {
      if (needle && ![c.id, c.title, c.category, c.description].some((s) => s.toLowerCase().includes(needle)))
        continue;
      if (category && c.category.toLowerCase() !== category) continue;
      if (ids && !ids.has(c.id)) continue;
      // A command the guard refuses whatever its params (a script while confined) is listed as disabled.
      const refused = c.unconfinable ? (this.#options.guard?.(c, {}, view) ?? null) : null;
      const reason = c.enabled?.(view) ?? (refused && `${refused.message} ${refused.remediation}`);
      if (options.enabledOnly && reason) continue;
      const entry: CatalogEntry = {
        id: c.id,
        title: c.title,
        category: c.category,
        description: c.description,
        enabled: reason === null,
        annotations: c.annotations,
        pathParams: c.pathParams,
        traits: traitsOf(c),
      };
      if (reason) entry.disabledReason = typeof reason === 'string' ? reason : reason.reason;
      // With the schema only: examples would push the plain catalog (command_list {}) past one 16 KB page.
      if (options.schemas) {
        entry.params = z.toJSONSchema(c.params, { unrepresentable: 'any' });
        if (c.example) entry.example = c.example;
      }
      out.push(entry);
    }
    return out;
  }

  /** Validates id and params without running; the guard is applied too. */
  prepare(
    id: string,
    raw: unknown,
  ): { ok: true; command: AnyCommand; params: unknown } | { ok: false; error: ErrorInfo } {
    const command = this.#commands.get(id);
    if (!command)
      return { ok: false, error: unknownCommand(id, [...this.#commands.keys()], this.#options.words) };
    let params: unknown;
    try {
      params = parseParams(command.params, raw, id);
    } catch (err) {
      return { ok: false, error: (err as EngineError).toInfo(this.#options.words) };
    }
    const badPath = declaredPaths(command, params).find((e) => !isAbsolute(e.path) || e.path.includes('\0'));
    if (badPath) {
      return {
        ok: false,
        error: {
          code: 'bad_argument',
          message: `"${badPath.param}" must be an absolute path without NUL bytes; got "${badPath.path.replace(/\0/g, '\\0')}".`,
          remediation: 'Pass an absolute path (starting with /).',
        },
      };
    }
    const disabled = command.enabled?.(this.view) ?? null;
    if (disabled) {
      // A reason alone is also its remedy ("The render queue is empty: add an item with renderQueue.add.").
      const { reason, remedy } =
        typeof disabled === 'string' ? { reason: disabled, remedy: disabled } : disabled;
      return {
        ok: false,
        error: {
          code: 'command_disabled',
          message: `${id} is not available now: ${reason}`,
          remediation: remedy,
        },
      };
    }
    const refused = this.#options.guard?.(command, params, this.view) ?? null;
    if (refused) return { ok: false, error: refused };
    return { ok: true, command, params };
  }

  /**
   * The single entry point for every change and query. Never throws; failures are values.
   * Edits wait their turn in the edit order (bounded: `busy`), unless they are steps of the open group.
   */
  async execute<R = unknown>(
    id: string,
    raw: unknown,
    options: ExecuteOptions = {},
  ): Promise<ExecuteResult<R>> {
    const command = this.#commands.get(id);
    const result = await this.#executeOrdered<R>(id, raw, options, command);
    if (options.actor !== undefined && (!command || command.mutates || traitsOf(command).backgroundJob)) {
      const event: EngineEvent = {
        type: 'commandApplied',
        id,
        title: command?.title ?? id,
        actor: options.actor,
        group: options.group?.id,
        ...(options.group && { groupLabel: options.group.label }),
        result,
      };
      for (const l of this.#listeners) l(event);
    }
    return result;
  }

  async #executeOrdered<R>(
    id: string,
    raw: unknown,
    options: ExecuteOptions,
    command: AnyCommand | undefined,
  ): Promise<ExecuteResult<R>> {
    if (!command?.mutates && !command?.ordered) return this.#executeNow<R>(id, raw, options);
    if (options.group) return this.#executeInGroup<R>(id, raw, options, options.group);
    const turn = await this.#order.acquire(
      { describe: `edit "${command.title}"` },
      { waitMs: this.#waitMs(), signal: options.signal },
    );
    if (!turn.ok) return turn;
    try {
      return await this.#executeNow<R>(id, raw, options);
    } finally {
      turn.release();
    }
  }

  #executeInGroup<R>(id: string, raw: unknown, options: ExecuteOptions, group: EditGroup) {
    const open = this.#group;
    if (!open || open.handle !== group || open.ended) {
      return Promise.resolve<ExecuteResult<R>>({ ok: false, error: groupEnded(group) });
    }
    const run = open.steps.then(() => this.#executeNow<R>(id, raw, options));
    open.steps = run.catch(() => undefined);
    return run;
  }

  async #executeNow<R>(id: string, raw: unknown, options: ExecuteOptions): Promise<ExecuteResult<R>> {
    const result = await this.#runCommand<R>(id, raw, options);
    // A batch of thousands of commands must not keep other callers' requests (and pings) waiting until it ends.
    // Paced after the command, not before: a command that takes a snapshot (a render) takes it synchronously
    // when it is called, so callers may let later calls go on as soon as it has been started.
    await this.#pacer.pace();
    return result;
  }

  async #runCommand<R>(id: string, raw: unknown, options: ExecuteOptions): Promise<ExecuteResult<R>> {
    const prepared = this.prepare(id, raw);
    if (!prepared.ok) return prepared;
    const { command, params } = prepared;
    const ctx = this.#context(options);
    try {
      const result = (await command.run(ctx, params)) as R;
      ctx.commit(command.title);
      if (ctx.savedTo !== null) this.#emitSaved(ctx.savedTo);
      const warnings = ctx.warnings;
      return warnings.length ? { ok: true, result, warnings } : { ok: true, result };
    } catch (err) {
      return { ok: false, error: this.#toErrorInfo(err, id) };
    }
  }

  /**
   * Opens a group: it waits its turn like an edit, then holds the edit order until `endGroup`, so every edit
   * made with `{ group }` is one undo step and no other caller's edit can land inside it (they wait, bounded).
   */
  async beginGroup(
    label: string,
    options: GroupOptions = {},
  ): Promise<{ ok: true; group: EditGroup } | { ok: false; error: ErrorInfo }> {
    const turn = await this.#order.acquire(
      { describe: `group "${label}"` },
      { waitMs: options.waitMs ?? this.#waitMs(), signal: options.signal },
    );
    if (!turn.ok) return turn;
    const handle: EditGroup = Object.freeze({ id: `group_${++this.#groupSeq}`, label });
    const start = {
      ...this.#history.mark(),
      doc: this.#doc,
      path: this.#path,
      digest: this.#digest,
      saved: this.#saved,
      opening: this.#opening,
    };
    this.#group = {
      handle,
      release: turn.release,
      start,
      depth: start.depth,
      replaced: false,
      steps: Promise.resolve(),
      ended: false,
    };
    return { ok: true, group: handle };
  }

  /**
   * Ends the open group once its steps in flight are done: `commit` folds its steps into one undo step, otherwise
   * its own steps are reverted (nobody else can have edited meanwhile: the group held the order). Returns whether
   * the edits were kept; false also for a group that is not open (already ended).
   */
  async endGroup(group: EditGroup, commit: boolean): Promise<boolean> {
    const open = this.#group;
    if (!open || open.handle !== group || open.ended) return false;
    open.ended = true;
    await open.steps;
    const steps = this.#history.takeSince(open.depth);
    if (commit) {
      if (steps.length) this.#history.push(foldSteps(group.label, steps));
    } else if (open.replaced) {
      this.#doc = open.start.doc;
      this.#path = open.start.path;
      this.#digest = open.start.digest;
      this.#saved = open.start.saved;
      this.#opening = open.start.opening;
      this.#history.restore(open.start.undo, open.start.redo);
      this.#emit(`${group.label} (rolled back)`);
    } else {
      this.#doc = revertSteps(this.#doc, steps);
      this.#history.restoreRedo(open.start.redo);
      if (steps.length) this.#emit(`${group.label} (rolled back)`);
    }
    this.#group = null;
    open.release();
    return commit;
  }

  /**
   * Runs `fn` as a group (see beginGroup): a failing `fn` (false or a throw) is rolled back unless `rollback`
   * is false. With `within`, `fn` runs as part of that already open group, which decides.
   */
  async group(
    label: string,
    fn: (group: EditGroup) => Promise<boolean>,
    options: GroupOptions & { rollback?: boolean; within?: EditGroup } = {},
  ): Promise<GroupResult> {
    if (options.within) return { ok: true, committed: await fn(options.within) };
    const begun = await this.beginGroup(label, options);
    if (!begun.ok) return begun;
    let ok = false;
    try {
      ok = await fn(begun.group);
    } finally {
      ok = await this.endGroup(begun.group, ok || options.rollback === false);
    }
    return { ok: true, committed: ok };
  }

  #waitMs(): number {
    return this.#options.editWaitMs ?? DEFAULT_EDIT_WAIT_MS;
  }

  #context(options: ExecuteOptions): CommandContext & {
    commit(label: string): void;
    warnings: string[];
    /** Where the command wrote the project, once it has (reported after it ends). */
    readonly savedTo: string | null;
  } {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const engine = this;
    // Until the command edits, it sees the live document (scripts run other commands and must see their edits).
    const step = new StepRecorder(() => engine.#doc, engine.#ids);
    const warnings: string[] = [];
    let savedTo: string | null = null;
    const signal = options.signal ?? new AbortController().signal;
    const move = (direction: 'undo' | 'redo'): string | null => {
      // An undo inside a group would revert a step of it, or a step from before it that the group cannot restore.
      if (options.group) throw undoInGroup(direction, options.group);
      const done = engine.#history.step(engine.#doc, direction);
      if (!done) return null;
      engine.#doc = done.doc;
      engine.#emit(`${direction === 'undo' ? 'Undo' : 'Redo'} ${done.label}`);
      return done.label;
    };
    return {
      get doc() {
        return step.doc;
      },
      get projectPath() {
        return engine.#path;
      },
      get projectFileDigest() {
        return engine.#digest;
      },
      get canUndo() {
        return engine.#history.canUndo;
      },
      get canRedo() {
        return engine.#history.canRedo;
      },
      get unsaved() {
        return step.doc !== engine.#saved;
      },
      warnings,
      update: (recipe) => step.update(recipe),
      insert: (path, index, value) => step.insert(path, index, value),
      remove: (path, index) => step.remove(path, index),
      replaceProject(next, path, digest) {
        step.reset();
        // Inside a group the history before it is kept aside: a rollback puts the old project back whole.
        if (engine.#group) {
          engine.#group.replaced = true;
          engine.#group.depth = 0;
        }
        engine.#doc = next;
        engine.#opening++;
        engine.#path = path;
        engine.#digest = path === null ? null : (digest ?? null);
        engine.#saved = next;
        // Another project: its own counter says which ids are free (the step still allocating sees this too).
        engine.#ids.next = 1;
        engine.#history.clear();
        engine.#emit('Replace project');
      },
      setProjectPath(path, digest) {
        engine.#path = path;
        engine.#digest = digest;
        // Called once the file is written: what it holds is the document as this step sees it.
        engine.#saved = step.doc;
        savedTo = path;
      },
      get savedTo() {
        return savedTo;
      },
      history: { undo: () => move('undo'), redo: () => move('redo') },
      ports: this.#options.ports,
      fontFamilies: this.#options.fontFamilies ?? null,
      missingGlyphs: this.#options.missingGlyphs ?? (() => []),
      signal,
      progress: (info) => options.onProgress?.(info),
      warn: (message) => warnings.push(message),
      // Commands a script runs inside a group are steps of that group.
      execute: (id, params, nested) =>
        engine.execute(id, params, { signal: nested ?? signal, group: options.group }),
      commit(label: string) {
        const next = step.changed;
        if (!next) return;
        // The one place every edit passes: it is not applied when it would break the schema or a limit.
        const refused = checkEdit(next, step.patches);
        if (refused) throw refused;
        engine.#doc = next;
        // A group's steps are folded when it ends; trimming must not cut into them meanwhile.
        engine.#history.push(
          { label, patches: [...step.patches], inverse: [...step.inverse] },
          engine.#group === null,
        );
        engine.#emit(label);
      },
    };
  }

  #emit(label: string): void {
    const revision = ++this.#revision;
    for (const l of this.#listeners) l({ type: 'documentChanged', label, revision });
  }

  #emitSaved(path: string): void {
    for (const l of this.#listeners) l({ type: 'projectSaved', path, revision: this.#revision });
  }

  #toErrorInfo(err: unknown, id: string): ErrorInfo {
    if (isEngineError(err)) return err.toInfo(this.#options.words);
    this.#options.logError?.(
      `${id} failed unexpectedly: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`,
    );
    return {
      code: 'tool_failed',
      message: `${id} failed unexpectedly${err instanceof Error ? `: ${err.message}` : ''}.`,
      remediation:
        'The document is unchanged. Check the parameters; if it persists, report it with the server log (stderr).',
    };
  }
}

function groupEnded(group: EditGroup): ErrorInfo {
  return {
    code: 'not_found',
    message: `The group "${group.label}" (${group.id}) is not open any more: it was ended or timed out, and this step was not applied.`,
    remediation: 'Check the document state, then run the steps again in a new group.',
  };
}

function undoInGroup(direction: 'undo' | 'redo', group: EditGroup): EngineError {
  return new EngineError(
    'bad_argument',
    `edit.${direction} cannot run inside the group "${group.label}": the group becomes one undo step when it ends.`,
    `Run edit.${direction} after the group ends; to drop the group's edits, let it fail so it rolls back.`,
  );
}

/** Up to 8 of `known` an unknown command id may have meant: those of its namespace, or containing it. */
export function similarCommands(id: string, known: readonly string[]): string[] {
  const prefix = id.split('.')[0] ?? '';
  return known.filter((k) => k.startsWith(prefix + '.') || k.includes(id)).slice(0, 8);
}

function unknownCommand(id: string, known: string[], words: SurfaceWords = MCP_WORDS): ErrorInfo {
  const near = similarCommands(id, known);
  return {
    code: 'unknown_command',
    message: `Unknown command "${id}".${near.length ? ` Similar: ${near.join(', ')}.` : ''}`,
    remediation: `List the available commands with ${words.commands}.`,
  };
}

export { EngineError };
