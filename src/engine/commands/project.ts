/** Project lifecycle: new, open, save (atomic), increment-and-save, close, inspect. */
import { basename, dirname, extname, join } from 'node:path';
import { freeze } from 'immer';
import { z } from 'zod';
import { defineCommand, DESTRUCTIVE_EDIT, EDIT, READ_ONLY, type SessionView } from '../catalog.js';
import { EngineError, fsError } from '../errors.js';
import { missingFootage } from '../footage-presence.js';
import { inspectDocument } from '../inspect.js';
import { emptyProject } from '../model.js';
import { checkProjectBytes, parseProject, serializeProject } from '../project-file.js';
import { projectDigest, refuseStaleSave } from '../project-stamp.js';
import { AbsPath, CompRef } from './params.js';
import { findComp } from '../resolve.js';

export const projectNew = defineCommand({
  id: 'project.new',
  title: 'New Project',
  category: 'Project',
  description:
    'Replaces the open project with an empty one (clears undo history; unsaved changes are discarded).',
  example: { name: 'Promo' },
  params: z.strictObject({ name: z.string().min(1).optional() }),
  pathParams: {},
  annotations: DESTRUCTIVE_EDIT,
  mutates: true,
  run(ctx, p) {
    ctx.replaceProject(freeze(emptyProject(p.name), true), null);
    return { name: ctx.doc.name };
  },
});

export const projectOpen = defineCommand({
  id: 'project.open',
  title: 'Open Project',
  category: 'Project',
  description:
    'Opens an .ecproj file, replacing the open project. A malformed file is reported and the open project is left unchanged. Relative render outputs in the file resolve against its folder, or against outputDir when given. Footage whose file is not there is listed in missingFootage (the project still opens; relink it with footage.relink), as is an image sequence with frames gone from the middle (its missingFrames: {count, first}).',
  example: { path: '/projects/promo.ecproj' },
  params: z.strictObject({
    path: AbsPath,
    outputDir: AbsPath.optional().describe(
      "Resolve the file's relative render outputs (and overflow folders) against this folder instead of the file's",
    ),
  }),
  pathParams: { path: 'read', outputDir: 'write' },
  annotations: DESTRUCTIVE_EDIT,
  mutates: true,
  async run(ctx, p) {
    let bytes: Buffer;
    try {
      bytes = await ctx.ports.readFile(p.path);
    } catch (err) {
      throw err instanceof EngineError ? err : fsError(err, p.path, 'open the project');
    }
    checkProjectBytes(bytes.length, p.path);
    const text = bytes.toString('utf8');
    const doc = parseProject(text, p.path, p.outputDir);
    ctx.replaceProject(freeze(doc, true), p.path, projectDigest(bytes));
    const comps = doc.items.filter((i) => i.type === 'composition').length;
    // The project opens anyway, as After Effects opens one with missing footage: say which, now.
    const missing = await missingFootage(doc, (path) => ctx.ports.exists(path));
    return {
      path: p.path,
      name: doc.name,
      compositions: comps,
      activeComp: doc.activeComp,
      ...(missing.length && { missingFootage: missing }),
    };
  },
});

async function writeProject(ctx: Parameters<typeof projectOpen.run>[0], path: string) {
  // A footage file of this very name (a clip named .ecproj: ffprobe reads files by content) would be replaced by
  // the project, as a render or frame.save over footage would (those refuse it too).
  const footage = ctx.doc.items.find((i) => i.type === 'footage' && i.path === path);
  if (footage)
    throw new EngineError(
      'bad_argument',
      `Saving the project to "${path}" would replace the file of footage "${footage.name}" (${footage.id}).`,
      'Save the project to another path.',
    );
  const text = serializeProject(ctx.doc, path);
  try {
    await ctx.ports.writeFileAtomic(path, text);
  } catch (err) {
    throw err instanceof EngineError ? err : fsError(err, path, 'save the project');
  }
  ctx.setProjectPath(path, projectDigest(text));
  return { path, bytes: Buffer.byteLength(text) };
}

function checkExtension(path: string): void {
  if (extname(path).toLowerCase() !== '.ecproj') {
    throw new EngineError(
      'bad_argument',
      `Project files end in .ecproj; got "${basename(path)}".`,
      'Pass a path ending in .ecproj.',
    );
  }
}

export const projectSave = defineCommand({
  id: 'project.save',
  title: 'Save Project',
  category: 'Project',
  description:
    'Saves the project atomically (temporary file, fsync, rename). "path" is required when the project has never been saved. Saving to the file the project was opened from or last saved to is refused (file_changed) when another program or session wrote that file since: pass overwrite: true to replace their work anyway.',
  example: { path: '/projects/promo.ecproj' },
  params: z.strictObject({
    path: AbsPath.optional(),
    overwrite: z
      .boolean()
      .optional()
      .describe(
        'Save even when the project file was changed on disk by another program or session since this session opened or last saved it (their changes are lost). Default false',
      ),
  }),
  pathParams: { path: 'write' },
  writesFiles: (view, p) => [p.path ?? view.projectPath].filter((x): x is string => !!x),
  annotations: { ...EDIT, idempotentHint: true },
  mutates: false,
  // Waits for another caller's open group: its half-done steps must not be written, as it may yet roll back.
  ordered: true,
  async run(ctx, p) {
    const path = p.path ?? ctx.projectPath;
    if (!path)
      throw new EngineError(
        'bad_argument',
        'The project has not been saved yet, so "path" is required.',
        'Pass "path": an absolute path ending in .ecproj.',
      );
    checkExtension(path);
    if (p.overwrite !== true) await refuseStaleSave(ctx, path);
    return writeProject(ctx, path);
  },
});

/** `shot.ecproj` -> `shot_2.ecproj`, `shot_2.ecproj` -> `shot_3.ecproj`. */
export function incrementedPath(path: string, step = 1): string {
  const ext = extname(path);
  const stem = basename(path, ext);
  const m = /^(.*)_(\d+)$/.exec(stem);
  const [base, n] = m ? [m[1]!, Number(m[2])] : [stem, 1];
  return join(dirname(path), `${base}_${n + step}${ext}`);
}

function needsSavedProject(view: SessionView): string | null {
  return view.projectPath ? null : 'The project has no file yet; save it once with project.save {path}.';
}

export const projectIncrementAndSave = defineCommand({
  id: 'project.incrementAndSave',
  title: 'Increment and Save',
  category: 'Project',
  description:
    'Saves a numbered copy beside the current file (name_2.ecproj, name_3.ecproj, …; never overwrites) and continues in it.',
  example: {},
  params: z.strictObject({}),
  pathParams: {},
  writesFiles: (view) => (view.projectPath ? [incrementedPath(view.projectPath)] : []),
  enabled: needsSavedProject,
  annotations: EDIT,
  mutates: false,
  ordered: true,
  async run(ctx) {
    let path = incrementedPath(ctx.projectPath!);
    for (let step = 2; await ctx.ports.exists(path); step++) path = incrementedPath(ctx.projectPath!, step);
    return writeProject(ctx, path);
  },
});

export const projectClose = defineCommand({
  id: 'project.close',
  title: 'Close Project',
  category: 'Project',
  description: 'Closes the project (unsaved changes are discarded) and leaves an empty one.',
  example: {},
  params: z.strictObject({}),
  pathParams: {},
  annotations: DESTRUCTIVE_EDIT,
  mutates: true,
  run(ctx) {
    const closed = ctx.projectPath;
    ctx.replaceProject(freeze(emptyProject(), true), null);
    return { closed };
  },
});

export const projectInspect = defineCommand({
  id: 'project.inspect',
  title: 'Inspect Project',
  category: 'Project',
  description:
    "Project overview and the active composition with its layers (the same data as the doc_inspect tool); comp details another composition instead (under composition, the active one unchanged); allLayers adds each composition's layer list (id, name, kind). Footage whose file is not there is marked missing: true (relink it with footage.relink); an image sequence with frames gone from the middle, missingFrames: {count, first} (the first 20 numbers).",
  example: { allLayers: true },
  params: z.strictObject({
    comp: CompRef.optional().describe(
      'Detail this composition (id or name) instead of the active one, under "composition"; the active composition stays as it is',
    ),
    allLayers: z
      .boolean()
      .optional()
      .describe("List every composition's layers (id, name, kind) in its summary as layerList"),
  }),
  pathParams: {},
  annotations: READ_ONLY,
  mutates: false,
  async run(ctx, p) {
    const missing = await missingFootage(ctx.doc, (path) => ctx.ports.exists(path));
    const comp = p.comp === undefined ? undefined : findComp(ctx.doc, p.comp);
    return inspectDocument(ctx, { allLayers: p.allLayers, missing, comp });
  },
});

export const projectCommands = [
  projectNew,
  projectOpen,
  projectSave,
  projectIncrementAndSave,
  projectClose,
  projectInspect,
];
