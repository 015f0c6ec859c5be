/**
 * The engine: holds the current document and its undo history, and runs every change through
 * `execute(id, params)`. Documents are immutable (immer, auto-frozen): a render job keeps the reference
 * it started with as its snapshot, at no cost.
 */
import { applyPatches, enablePatches, produceWithPatches, type Patch } from 'immer';
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
import { EngineError, isEngineError, type ErrorInfo } from './errors.js';
import { emptyProject, type Project } from './model.js';
import type { EnginePorts } from './ports.js';
import { parseParams } from './validation.js';

enablePatches();

export type ExecuteResult<R = unknown> =
  { ok: true; result: R; warnings?: string[] } | { ok: false; error: ErrorInfo };

export interface ExecuteOptions {
  signal?: AbortSignal;
  onProgress?: (info: ProgressInfo) => void;
}

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
}

interface HistoryEntry {
  label: string;
  patches: Patch[];
  inverse: Patch[];
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
  params?: unknown;
}

export interface ListOptions {
  filter?: string;
  enabledOnly?: boolean;
  schemas?: boolean;
}

export type EngineEvent = { type: 'documentChanged'; label: string };

export class Engine {
  #doc: Project = emptyProject();
  #path: string | null = null;
  #undo: HistoryEntry[] = [];
  #redo: HistoryEntry[] = [];
  readonly #commands: Map<string, AnyCommand>;
  readonly #options: EngineOptions;
  readonly #listeners = new Set<(event: EngineEvent) => void>();
  // Mutating commands run one at a time so no edit is based on a stale document; reads and renders don't wait.
  #editLock: Promise<unknown> = Promise.resolve();
  #groupDepth = 0;

  constructor(options: EngineOptions) {
    this.#options = options;
    this.#commands = new Map(options.commands.map((c) => [c.id, c]));
  }

  get document(): Project {
    return this.#doc;
  }

  get projectPath(): string | null {
    return this.#path;
  }

  get view(): SessionView {
    return {
      doc: this.#doc,
      projectPath: this.#path,
      canUndo: this.#undo.length > 0,
      canRedo: this.#redo.length > 0,
    };
  }

  get ports(): EnginePorts {
    return this.#options.ports;
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

  /** Lists the catalog, optionally filtered by text (id, title, category, description) and enabled state. */
  list(options: ListOptions = {}): CatalogEntry[] {
    const needle = options.filter?.toLowerCase();
    const view = this.view;
    const out: CatalogEntry[] = [];
    for (const c of this.#commands.values()) {
      if (needle && ![c.id, c.title, c.category, c.description].some((s) => s.toLowerCase().includes(needle)))
        continue;
      const reason = c.enabled?.(view) ?? null;
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
      if (reason) entry.disabledReason = reason;
      if (options.schemas) entry.params = z.toJSONSchema(c.params, { unrepresentable: 'any' });
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
    if (!command) return { ok: false, error: unknownCommand(id, [...this.#commands.keys()]) };
    let params: unknown;
    try {
      params = parseParams(command.params, raw, id);
    } catch (err) {
      return { ok: false, error: (err as EngineError).toInfo() };
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
    const reason = command.enabled?.(this.view) ?? null;
    if (reason) {
      return {
        ok: false,
        error: {
          code: 'command_disabled',
          message: `${id} is not available now: ${reason}`,
          remediation: reason,
        },
      };
    }
    const refused = this.#options.guard?.(command, params, this.view) ?? null;
    if (refused) return { ok: false, error: refused };
    return { ok: true, command, params };
  }

  /** The single entry point for every change and query. Never throws; failures are values. */
  async execute<R = unknown>(
    id: string,
    raw: unknown,
    options: ExecuteOptions = {},
  ): Promise<ExecuteResult<R>> {
    const command = this.#commands.get(id);
    if (command?.mutates) {
      const run = this.#editLock.then(() => this.#executeNow<R>(id, raw, options));
      this.#editLock = run.catch(() => undefined);
      return run;
    }
    return this.#executeNow<R>(id, raw, options);
  }

  async #executeNow<R>(id: string, raw: unknown, options: ExecuteOptions): Promise<ExecuteResult<R>> {
    const prepared = this.prepare(id, raw);
    if (!prepared.ok) return prepared;
    const { command, params } = prepared;
    const ctx = this.#context(options);
    try {
      const result = (await command.run(ctx, params)) as R;
      ctx.commit(command.title);
      const warnings = ctx.warnings;
      return warnings.length ? { ok: true, result, warnings } : { ok: true, result };
    } catch (err) {
      return { ok: false, error: this.#toErrorInfo(err, id) };
    }
  }

  /**
   * Runs `fn` so that every edit it makes becomes one undo step. With `rollback`, a failing `fn`
   * (one that returns false or throws) leaves the document as it was before.
   */
  async group(label: string, fn: () => Promise<boolean>, rollback = true): Promise<boolean> {
    const startDepth = this.#undo.length;
    const startDoc = this.#doc;
    const startRedo = this.#redo;
    this.#groupDepth++;
    let ok = false;
    try {
      ok = await fn();
    } finally {
      this.#groupDepth--;
      const entries = this.#undo.splice(startDepth);
      if (!ok && rollback) {
        this.#doc = startDoc;
        this.#redo = startRedo;
        if (entries.length) this.#emit(`${label} (rolled back)`);
      } else if (entries.length) {
        this.#undo.push({
          label,
          patches: entries.flatMap((e) => e.patches),
          inverse: entries.reverse().flatMap((e) => e.inverse),
        });
      }
    }
    return ok;
  }

  #context(options: ExecuteOptions): CommandContext & { commit(label: string): void; warnings: string[] } {
    // eslint-disable-next-line @typescript-eslint/no-this-alias
    const engine = this;
    // Until the command edits, it sees the live document (scripts run other commands and must see their edits).
    let localDoc: Project | null = null;
    const patches: Patch[] = [];
    const inverse: Patch[] = [];
    const warnings: string[] = [];
    const signal = options.signal ?? new AbortController().signal;
    return {
      get doc() {
        return localDoc ?? engine.#doc;
      },
      get projectPath() {
        return engine.#path;
      },
      get canUndo() {
        return engine.#undo.length > 0;
      },
      get canRedo() {
        return engine.#redo.length > 0;
      },
      warnings,
      update(recipe) {
        // The wrapper drops whatever the recipe returns: recipes only mutate the draft.
        const [next, p, inv] = produceWithPatches(localDoc ?? engine.#doc, (draft) => {
          recipe(draft);
        });
        localDoc = next;
        patches.push(...p);
        inverse.unshift(...inv);
      },
      replaceProject(next, path) {
        localDoc = null;
        patches.length = 0;
        inverse.length = 0;
        engine.#doc = next;
        engine.#path = path;
        engine.#undo = [];
        engine.#redo = [];
        engine.#emit('Replace project');
      },
      setProjectPath(path) {
        engine.#path = path;
      },
      history: {
        undo: () => engine.#step(engine.#undo, engine.#redo, 'inverse'),
        redo: () => engine.#step(engine.#redo, engine.#undo, 'patches'),
      },
      ports: this.#options.ports,
      fontFamilies: this.#options.fontFamilies ?? null,
      missingGlyphs: this.#options.missingGlyphs ?? (() => []),
      signal,
      progress: (info) => options.onProgress?.(info),
      warn: (message) => warnings.push(message),
      execute: (id, params, nested) => engine.execute(id, params, { signal: nested ?? signal }),
      commit(label: string) {
        if (patches.length === 0 || !localDoc) return;
        engine.#doc = localDoc;
        engine.#undo.push({ label, patches: [...patches], inverse: [...inverse] });
        const limit = engine.#options.historyLimit ?? 500;
        if (engine.#groupDepth === 0 && engine.#undo.length > limit)
          engine.#undo.splice(0, engine.#undo.length - limit);
        engine.#redo = [];
        engine.#emit(label);
      },
    };
  }

  #step(from: HistoryEntry[], to: HistoryEntry[], which: 'patches' | 'inverse'): string | null {
    const entry = from.pop();
    if (!entry) return null;
    this.#doc = applyPatches(this.#doc, entry[which]);
    to.push(entry);
    this.#emit(which === 'inverse' ? `Undo ${entry.label}` : `Redo ${entry.label}`);
    return entry.label;
  }

  #emit(label: string): void {
    for (const l of this.#listeners) l({ type: 'documentChanged', label });
  }

  #toErrorInfo(err: unknown, id: string): ErrorInfo {
    if (isEngineError(err)) return err.toInfo();
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

function unknownCommand(id: string, known: string[]): ErrorInfo {
  const prefix = id.split('.')[0] ?? '';
  const near = known.filter((k) => k.startsWith(prefix + '.') || k.includes(id)).slice(0, 8);
  return {
    code: 'unknown_command',
    message: `Unknown command "${id}".${near.length ? ` Similar: ${near.join(', ')}.` : ''}`,
    remediation: 'List the available commands with command_list (or `effectcraft-cli commands`).',
  };
}

export { EngineError };
