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
  enabled: (v) =>
    v.canUndo
      ? null
      : {
          reason: 'There is nothing to undo.',
          remedy:
            'Nothing to take back: no edit was made since the project was opened or created, or every one was undone already.',
        },
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
  enabled: (v) =>
    v.canRedo
      ? null
      : {
          reason: 'There is nothing to redo.',
          remedy:
            'Redo goes forward after edit.undo; an edit made after an undo clears what could be redone.',
        },
  annotations: EDIT,
  mutates: true,
  run(ctx) {
    return { redone: ctx.history.redo() };
  },
});

export const editCommands = [editUndo, editRedo];
