/** Composition commands: create, activate, change settings, duplicate, delete. */
import { z } from 'zod';
import { defineCommand, DESTRUCTIVE_EDIT, EDIT, IDEMPOTENT_EDIT } from '../catalog.js';
import { EngineError } from '../errors.js';
import { MAX_SIDE, type Composition } from '../model.js';
import { refitForFrame } from '../layer-fit.js';
import { checkRenderItem } from '../render-item-rules.js';
import { compositions, draftComp, findComp, newId, uniqueName } from '../resolve.js';
import { color, ColorInput, CompRef, RequiredCompRef } from './params.js';

export const Size = z.number().int().min(1).max(MAX_SIDE).describe(`Pixels, 1 to ${MAX_SIDE}`);
export const FrameRate = z
  .number()
  .min(1)
  .max(240)
  .describe('Frames per second, from 1 to 240 (as After Effects: 1 and up)');
export const Duration = z
  .number()
  .positive()
  .max(86400)
  .describe('Seconds, above 0 and up to 86400 (24 hours)');

export const compNew = defineCommand({
  id: 'comp.new',
  title: 'New Composition',
  category: 'Composition',
  description: 'Creates a composition and makes it active. Returns its id.',
  example: { name: 'Main', width: 1920, height: 1080, frameRate: 30, duration: 5 },
  params: z.strictObject({
    name: z.string().min(1).optional(),
    width: Size,
    height: Size,
    frameRate: FrameRate.optional().describe('Frames per second, from 1 to 240 (default 30)'),
    duration: Duration.optional().describe('Seconds, above 0 and up to 86400, i.e. 24 hours (default 10)'),
    backgroundColor: ColorInput.optional().describe(
      'Background colour: "#rrggbb" hex, a CSS colour name or [r, g, b, a?] in 0..1 (default #000000)',
    ),
  }),
  pathParams: {},
  annotations: EDIT,
  mutates: true,
  run(ctx, p) {
    let id = '';
    const bg = p.backgroundColor === undefined ? '#000000' : color(p.backgroundColor, 'backgroundColor');
    ctx.update((d) => {
      id = newId(d, 'comp');
      const comp: Composition = {
        type: 'composition',
        id,
        name: p.name ?? uniqueName(compositions(ctx.doc), 'Comp'),
        width: p.width,
        height: p.height,
        frameRate: p.frameRate ?? 30,
        duration: p.duration ?? 10,
        backgroundColor: bg,
        layers: [],
      };
      d.items.push(comp);
      d.activeComp = id;
    });
    return { id };
  },
});

export const compSetActive = defineCommand({
  id: 'comp.setActive',
  title: 'Set Active Composition',
  category: 'Composition',
  description: 'Makes a composition the one commands act on when "comp" is omitted.',
  example: { comp: 'Main' },
  params: z.strictObject({ comp: RequiredCompRef }),
  pathParams: {},
  annotations: IDEMPOTENT_EDIT,
  mutates: true,
  run(ctx, p) {
    const comp = findComp(ctx.doc, p.comp);
    if (ctx.doc.activeComp !== comp.id) ctx.update((d) => void (d.activeComp = comp.id));
    return { id: comp.id };
  },
});

export const compSetSettings = defineCommand({
  id: 'comp.setSettings',
  title: 'Composition Settings',
  category: 'Composition',
  description:
    'Changes name, size, frame rate, duration or background colour of a composition. A new size fits again each layer still showing its layer.fit (a vertical version of a comp: comp.duplicate, then a new size here).',
  example: { comp: 'Main', duration: 8, backgroundColor: '#101820' },
  params: z.strictObject({
    comp: CompRef.optional(),
    name: z.string().min(1).optional(),
    width: Size.optional(),
    height: Size.optional(),
    frameRate: FrameRate.optional(),
    duration: Duration.optional(),
    backgroundColor: ColorInput.optional(),
  }),
  pathParams: {},
  annotations: IDEMPOTENT_EDIT,
  mutates: true,
  run(ctx, p) {
    const comp = findComp(ctx.doc, p.comp);
    const bg = p.backgroundColor === undefined ? undefined : color(p.backgroundColor, 'backgroundColor');
    let refitted: string[] = [];
    ctx.update((d) => {
      const c = draftComp(d, comp.id);
      if (p.name !== undefined) c.name = p.name;
      if (p.width !== undefined) c.width = p.width;
      if (p.height !== undefined) c.height = p.height;
      if (p.frameRate !== undefined) c.frameRate = p.frameRate;
      if (p.duration !== undefined) c.duration = p.duration;
      if (bg !== undefined) c.backgroundColor = bg;
      refitted = refitForFrame(ctx.doc, comp, c);
    });
    if (refitted.length)
      ctx.warn(`Fitted to the new size again, by the mode layer.fit gave each: ${refitted.join(', ')}.`);
    const c = findComp(ctx.doc, comp.id);
    // A project must always reopen: its queue items are held to renderQueue.add's rules, so a change that would
    // put a queued item of this comp outside them (frames past the new end, frames too large) is refused.
    for (const item of ctx.doc.renderQueue.filter((q) => q.comp === comp.id)) {
      const check = checkRenderItem(item, c);
      if (!check.ok) {
        throw new EngineError(
          check.code,
          `These settings would break render queue item "${item.id}": ${check.message}`,
          `Change or remove that item first (renderQueue.remove, then renderQueue.add with new settings), or keep the composition's ${check.field === 'frameRange' ? 'duration and frame rate' : 'size'}.`,
        );
      }
    }
    return {
      id: c.id,
      name: c.name,
      width: c.width,
      height: c.height,
      frameRate: c.frameRate,
      duration: c.duration,
      backgroundColor: c.backgroundColor,
    };
  },
});

export const compDuplicate = defineCommand({
  id: 'comp.duplicate',
  title: 'Duplicate Composition',
  category: 'Composition',
  description: 'Copies a composition with all its layers (new ids). Returns the new id.',
  example: { comp: 'Main', name: 'Main (vertical)' },
  params: z.strictObject({ comp: CompRef.optional(), name: z.string().min(1).optional() }),
  pathParams: {},
  annotations: EDIT,
  mutates: true,
  run(ctx, p) {
    const comp = findComp(ctx.doc, p.comp);
    let id = '';
    ctx.update((d) => {
      id = newId(d, 'comp');
      const copy = structuredClone(comp) as Composition;
      copy.id = id;
      copy.name = p.name ?? uniqueName(compositions(ctx.doc), `${comp.name} copy`);
      // Layers get fresh ids; parent and matte links are remapped to the copies.
      const map = new Map<string, string>();
      for (const l of copy.layers) map.set(l.id, newId(d, 'layer'));
      for (const l of copy.layers) {
        l.id = map.get(l.id)!;
        if (l.parent) l.parent = map.get(l.parent) ?? null;
        if (l.trackMatte) l.trackMatte.layer = map.get(l.trackMatte.layer) ?? l.trackMatte.layer;
        for (const e of l.effects) e.id = newId(d, 'fx');
      }
      // The copy's inputs drive the copy's layers.
      for (const input of copy.inputs ?? [])
        for (const b of input.bindings) b.layer = map.get(b.layer) ?? b.layer;
      d.items.push(copy);
    });
    return { id };
  },
});

export const compDelete = defineCommand({
  id: 'comp.delete',
  title: 'Delete Composition',
  category: 'Composition',
  description:
    'Deletes a composition. Refused while another composition uses it as a precomp layer or the render queue renders it.',
  example: { comp: 'Main (vertical)' },
  params: z.strictObject({ comp: RequiredCompRef }),
  pathParams: {},
  annotations: DESTRUCTIVE_EDIT,
  mutates: true,
  run(ctx, p) {
    const comp = findComp(ctx.doc, p.comp);
    const users = compositions(ctx.doc).flatMap((c) =>
      c.layers
        .filter((l) => l.source.kind === 'precomp' && l.source.comp === comp.id)
        .map((l) => `${c.name}/${l.name}`),
    );
    if (users.length) {
      throw new EngineError(
        'bad_argument',
        `Composition "${comp.name}" is used by precomp layers: ${users.join(', ')}.`,
        'Delete those layers first.',
      );
    }
    const queued = ctx.doc.renderQueue.filter((q) => q.comp === comp.id).map((q) => q.id);
    if (queued.length) {
      throw new EngineError(
        'bad_argument',
        `Composition "${comp.name}" is in the render queue: ${queued.join(', ')}.`,
        'Remove those items with renderQueue.remove first.',
      );
    }
    // One change for the removal, whatever the number of items.
    ctx.remove(['items'], ctx.doc.items.indexOf(comp));
    if (ctx.doc.activeComp === comp.id) {
      const next = compositions(ctx.doc)[0]?.id ?? null;
      ctx.update((d) => void (d.activeComp = next));
    }
    return { id: comp.id, deleted: true };
  },
});

export const compCommands = [compNew, compSetActive, compSetSettings, compDuplicate, compDelete];
