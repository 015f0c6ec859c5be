/** Undo and redo: each command that changed the document is one step. */
import { z } from 'zod';
import { defineCommand, EDIT } from '../catalog.js';

export const editUndo = defineCommand({
  id: 'edit.undo',
  title: 'Undo',
  category: 'Edit',
  description: 'Undoes the last change to the document.',
  example: {},
  params: z.strictObject({}),
  pathParams: {},
  enabled: (v) => (v.canUndo ? null : 'There is nothing to undo.'),
  annotations: EDIT,
  mutates: true,
  run(ctx) {
    return { undone: ctx.history.undo() };
  },
});

export const editRedo = defineCommand({
  id: 'edit.redo',
  title: 'Redo',
  category: 'Edit',
  description: 'Redoes the last undone change.',
  example: {},
  params: z.strictObject({}),
  pathParams: {},
  enabled: (v) => (v.canRedo ? null : 'There is nothing to redo.'),
  annotations: EDIT,
  mutates: true,
  run(ctx) {
    return { redone: ctx.history.redo() };
  },
});

export const editCommands = [editUndo, editRedo];
