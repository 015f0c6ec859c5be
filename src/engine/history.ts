/**
 * One undo history per document, as in After Effects: whoever edits, undo reverts the latest step. A step is
 * the patches of one command, or of one whole group (folded when the group commits), so an undo never splits
 * a group. Patches are immer's: a step costs memory in proportion to what it changed.
 */
import type { Patch } from 'immer';
import type { Project } from './model.js';
import { applyChanges } from './patches.js';

export interface HistoryStep {
  label: string;
  patches: Patch[];
  inverse: Patch[];
}

/** An undo step as diagnostics see it: its label and how many changes (patches) it keeps. */
export interface StepSummary {
  label: string;
  changes: number;
}

export interface HistoryMark {
  depth: number;
  undo: HistoryStep[];
  redo: HistoryStep[];
}

export class UndoHistory {
  #undo: HistoryStep[] = [];
  #redo: HistoryStep[] = [];
  readonly #limit: number;

  constructor(limit: number) {
    this.#limit = limit;
  }

  get canUndo(): boolean {
    return this.#undo.length > 0;
  }

  get canRedo(): boolean {
    return this.#redo.length > 0;
  }

  /** Records a new step; a new edit ends what could be redone. `trim` drops steps past the limit. */
  push(step: HistoryStep, trim = true): void {
    this.#undo.push(step);
    if (trim && this.#undo.length > this.#limit) this.#undo.splice(0, this.#undo.length - this.#limit);
    this.#redo = [];
  }

  /** Applies the latest step's inverse (undo) or the latest undone step again (redo). */
  step(doc: Project, direction: 'undo' | 'redo'): { doc: Project; label: string } | null {
    const [from, to] = direction === 'undo' ? [this.#undo, this.#redo] : [this.#redo, this.#undo];
    const entry = from.pop();
    if (!entry) return null;
    to.push(entry);
    return {
      doc: applyChanges(doc, direction === 'undo' ? entry.inverse : entry.patches),
      label: entry.label,
    };
  }

  summary(): StepSummary[] {
    return this.#undo.map((s) => ({ label: s.label, changes: s.patches.length + s.inverse.length }));
  }

  clear(): void {
    this.#undo = [];
    this.#redo = [];
  }

  /** Where a group starts: the steps after this mark are the group's own. */
  mark(): HistoryMark {
    return { depth: this.#undo.length, undo: [...this.#undo], redo: this.#redo };
  }

  /** Removes and returns the steps recorded since `depth`. */
  takeSince(depth: number): HistoryStep[] {
    return this.#undo.splice(depth);
  }

  /** Puts back a history saved by `mark` (a group that replaced the project and then rolled back). */
  restore(undo: HistoryStep[], redo: HistoryStep[]): void {
    this.#undo = undo;
    this.#redo = redo;
  }

  /** Restores only the redo list (a rolled-back group leaves what could be redone as it was). */
  restoreRedo(redo: HistoryStep[]): void {
    this.#redo = redo;
  }
}

/** Folds a group's steps into one: patches in order, inverses in reverse order. */
export function foldSteps(label: string, steps: HistoryStep[]): HistoryStep {
  return {
    label,
    patches: steps.flatMap((s) => s.patches),
    inverse: [...steps].reverse().flatMap((s) => s.inverse),
  };
}

/** The document before `steps`: their inverses applied newest first. */
export function revertSteps(doc: Project, steps: HistoryStep[]): Project {
  let out = doc;
  for (const s of [...steps].reverse()) out = applyChanges(out, s.inverse);
  return out;
}
