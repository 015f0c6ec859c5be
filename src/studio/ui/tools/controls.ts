/**
 * The named controls the UI tools set (page.set) and list (page.controls). Setting a control does what a person
 * does with it: view settings change this page's view; document values run the same command the field runs
 * (property.set or property.setKeyframe at the playhead, comp.setActive). The answer is the value read back
 * once the change is applied. docs/studio.md documents these paths; CONTROL_PATHS is the list it is written from.
 */
import type { ControlInfo } from '../../protocol.js';
import { VIEWER_ZOOMS } from '../../protocol.js';
import type { PropertyValue } from '../../../engine/model.js';
import { propertyStep } from '../live/property-edit.js';
import { RpcError } from '../live/rpc-error.js';
import { RESOLUTIONS, parseZoom } from '../panels/viewer.js';
import { activeComp, compositions, findLayer, frameCount, layerById } from '../state/doc.js';
import {
  controlPathOf,
  effectNames,
  layerProperties,
  rowValue,
  type PropertyRow,
} from '../state/layer-properties.js';
import { layerSwitches, switchPathOf, type SwitchRow } from '../state/layer-switches.js';
import type { ViewerResolution } from '../state/studio-state.js';
import type { Studio } from '../studio.js';

/** Every control path, as documented (`<...>` parts depend on the selected layer). */
export const CONTROL_PATHS = [
  'Viewer/zoom',
  'Viewer/resolution',
  'Viewer/transparencyGrid',
  'Viewer/safeMargins',
  'Transport/playing',
  'Transport/frame',
  'Transport/sound',
  'Timeline/zoom',
  'Project/activeComp',
  'Layers/selected',
  'Properties/Transform/Anchor Point',
  'Properties/Transform/Position',
  'Properties/Transform/Scale',
  'Properties/Transform/Rotation',
  'Properties/Transform/Opacity',
  'Properties/Text/Text',
  'Properties/Text/Font Size',
  'Properties/Text/Tracking',
  'Properties/Text/Fill Color',
  'Properties/Text/Stroke Color',
  'Properties/Text/Stroke Width',
  'Properties/Solid/Color',
  'Properties/Shape/Size',
  'Properties/Shape/Roundness',
  'Properties/Shape/Outer Radius',
  'Properties/Shape/Inner Radius',
  'Properties/Shape/Fill Color',
  'Properties/Shape/Stroke Color',
  'Properties/Shape/Stroke Width',
  'Properties/Time/Speed',
  'Properties/Time/Reverse',
  'Properties/Time/Loop',
  'Properties/Time/Freeze',
  'Properties/Time/Freeze At',
  'Properties/Time/Frame Blending',
  'Properties/Audio/Level',
  'Properties/Audio/Mute',
  'Properties/Audio/Stream',
  'Properties/Effects/<effect name>/<param>',
] as const;

export interface Control extends Omit<ControlInfo, 'value'> {
  get(): unknown;
  /** Applies the value as a person would; resolves once it is applied. */
  set(value: unknown): Promise<void>;
  /** Other spellings that find it (an effect by id). */
  aliases?: string[];
}

const nextFrame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));

/** Paths match without regard to case or spaces: "properties/transform/anchorpoint" finds Anchor Point. */
const normalise = (path: string) => path.toLowerCase().replace(/\s+/g, '');

function bad(path: string, expected: string, value: unknown): RpcError {
  return new RpcError({
    code: 'bad_argument',
    message: `${path} takes ${expected}; got ${JSON.stringify(value) ?? String(value)}.`,
    remediation: `Pass ${expected} (page.controls shows each control's type and current value).`,
  });
}

function toBoolean(path: string, v: unknown): boolean {
  if (typeof v === 'boolean') return v;
  if (v === 'true' || v === 'false') return v === 'true';
  throw bad(path, 'true or false', v);
}

function toNumber(path: string, v: unknown): number {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  if (typeof n !== 'number' || !Number.isFinite(n)) throw bad(path, 'a number', v);
  return n;
}

/** All controls, with the Properties ones of the selected layer. */
export function listControls(studio: Studio): Control[] {
  const store = studio.store;
  const s = () => store.state;
  const comp = activeComp(s().doc);
  const controls: Control[] = [
    {
      path: 'Viewer/zoom',
      type: 'enum',
      options: VIEWER_ZOOMS.map(String),
      get: () => s().zoom,
      set: async (v) => {
        try {
          store.update({ zoom: parseZoom(v) });
        } catch {
          throw bad('Viewer/zoom', `one of ${VIEWER_ZOOMS.join(', ')}`, v);
        }
        await nextFrame();
      },
    },
    {
      path: 'Viewer/resolution',
      type: 'enum',
      options: [...RESOLUTIONS],
      get: () => s().resolution,
      set: async (v) => {
        if (!RESOLUTIONS.includes(v as ViewerResolution))
          throw bad('Viewer/resolution', RESOLUTIONS.join(', '), v);
        store.update({ resolution: v as ViewerResolution });
        await nextFrame();
      },
    },
    flag(studio, 'Viewer/transparencyGrid', 'transparencyGrid'),
    flag(studio, 'Viewer/safeMargins', 'safeMargins'),
    {
      path: 'Transport/playing',
      type: 'boolean',
      get: () => s().playing,
      set: async (v) => {
        if (toBoolean('Transport/playing', v)) studio.player.play();
        else studio.player.pause();
      },
    },
    {
      path: 'Transport/frame',
      type: 'number',
      unit: 'frame',
      min: 0,
      max: comp ? frameCount(comp) - 1 : 0,
      get: () => s().frame,
      set: async (v) => {
        studio.player.pause();
        studio.seek(toNumber('Transport/frame', v));
        await waitFor(() => s().painted?.frame === s().frame, 2000);
      },
    },
    {
      path: 'Transport/sound',
      type: 'boolean',
      get: () => s().soundOn,
      set: async (v) => {
        studio.player.sound.setOn(toBoolean('Transport/sound', v));
        await nextFrame();
      },
    },
    {
      path: 'Timeline/zoom',
      type: 'number',
      unit: 'x',
      min: 1,
      max: 40,
      get: () => s().timelineZoom,
      set: async (v) => {
        store.update({ timelineZoom: Math.min(40, Math.max(1, toNumber('Timeline/zoom', v))) });
        await nextFrame();
      },
    },
    {
      path: 'Project/activeComp',
      type: 'string',
      options: compositions(s().doc).map((c) => c.id),
      get: () => s().doc?.activeComp ?? null,
      set: async (v) => {
        const ref = String(v);
        const found = compositions(s().doc).filter((c) => c.id === ref || c.name === ref);
        if (found.length !== 1) throw bad('Project/activeComp', 'a composition id or unique name', v);
        await studio.commands.run('comp.setActive', { comp: found[0]!.id });
        await studio.refreshView();
      },
    },
    {
      path: 'Layers/selected',
      type: 'string',
      options: comp?.layers.map((l) => l.id) ?? [],
      get: () => s().selection,
      set: async (v) => {
        if (v === null || v === '') return studio.select(null);
        const layer = findLayer(activeComp(s().doc), String(v));
        if (!layer) throw bad('Layers/selected', 'a layer id or unique name of the active composition', v);
        studio.select(layer.id);
        await nextFrame();
      },
    },
  ];
  const layer = layerById(comp, s().selection);
  if (comp && layer) {
    const effectIds = new Map(effectNames(layer).map((e) => [e.name, e.effect.id]));
    for (const row of layerProperties(layer, s().doc)) controls.push(propertyControl(studio, row, effectIds));
    for (const row of layerSwitches(s().doc!, comp, layer, s().frame))
      controls.push(switchControl(studio, row));
  }
  return controls;
}

/** A Time or Audio setting of the selected layer: the value read from the document now, set by its command. */
function switchControl(studio: Studio, row: SwitchRow): Control {
  const path = switchPathOf(row);
  const current = () => {
    const at = selected(studio);
    return at
      ? layerSwitches(at.doc, at.comp, at.layer, at.s.frame).find((r) => r.name === row.name)
      : undefined;
  };
  return {
    ...described(path, row),
    ...(row.options && { options: row.options }),
    get: () => current()?.value,
    set: async (v) => {
      const now = current();
      if (!now) throw bad(path, 'a value for the selected layer', v);
      let value: SwitchRow['value'];
      if (now.type === 'boolean') value = toBoolean(path, v);
      else if (now.type === 'number') {
        value = toNumber(path, v);
        // As the field on screen bounds it (a negative speed is Reverse, a control of its own).
        if (value < (now.min ?? -Infinity) || value > (now.max ?? Infinity))
          throw bad(path, `a number from ${now.min} to ${now.max}`, v);
      } else if (now.options?.includes(String(v))) value = String(v);
      else throw bad(path, `one of ${now.options?.join(', ')}`, v);
      const step = now.change(value);
      await studio.commands.run(step.id, step.params);
      await studio.refreshView();
    },
  };
}

/** What page.controls tells of a row's control: its path, type, unit and bounds. */
const described = (path: string, row: Pick<Control, 'type' | 'unit' | 'min' | 'max'>) => ({
  path,
  type: row.type,
  unit: row.unit,
  min: row.min,
  max: row.max,
});

/** The selected layer of the active composition, with the state it was read from; null when none is. */
function selected(studio: Studio) {
  const s = studio.store.state;
  const comp = activeComp(s.doc);
  const layer = layerById(comp, s.selection);
  return s.doc && comp && layer ? { s, doc: s.doc, comp, layer } : null;
}

function flag(studio: Studio, path: string, key: 'transparencyGrid' | 'safeMargins'): Control {
  return {
    path,
    type: 'boolean',
    get: () => studio.store.state[key],
    set: async (v) => {
      studio.store.update({ [key]: toBoolean(path, v) });
      await nextFrame();
    },
  };
}

function propertyControl(studio: Studio, row: PropertyRow, effectIds: Map<string, string>): Control {
  const path = controlPathOf(row);
  const current = () => {
    const at = selected(studio);
    return at ? { ...at, row: layerProperties(at.layer, at.doc).find((r) => r.path === row.path) } : null;
  };
  const effect = row.group.startsWith('Effects/') ? row.group.slice('Effects/'.length) : null;
  const effectId = effect ? effectIds.get(effect) : undefined;
  const key = row.path.split('.').pop()!;
  return {
    ...described(path, row),
    // An effect is also found by its id, and a parameter by its key ("mapBlackTo" as well as "Map Black To").
    ...(effect && {
      aliases: [
        `${effect}/${key}`,
        ...(effectId ? [`${effectId}/${row.name}`, `${effectId}/${key}`] : []),
      ].map((tail) => `Properties/Effects/${tail}`),
    }),
    get: () => {
      const c = current();
      return c?.row ? rowValue(c.row, c.comp, c.layer, c.s.frame) : undefined;
    },
    set: async (v) => {
      const c = current();
      if (!c?.row) throw bad(path, 'a value for the selected layer', v);
      const value = coerce(path, row, v);
      const step = propertyStep(c.comp, c.layer, c.row, c.s.frame, value);
      await studio.commands.run(step.id, step.params);
      await studio.refreshView();
    },
  };
}

function coerce(path: string, row: PropertyRow, v: unknown): PropertyValue {
  switch (row.type) {
    case 'number':
      return toNumber(path, v);
    case 'vec2':
      if (Array.isArray(v) && v.length === 2) return [toNumber(path, v[0]), toNumber(path, v[1])];
      if (typeof v === 'number') return [v, v];
      throw bad(path, '[x, y]', v);
    case 'color':
    case 'string':
      if (typeof v !== 'string')
        throw bad(path, row.type === 'color' ? 'a colour such as "#ff8800"' : 'a string', v);
      return v;
  }
}

async function waitFor(done: () => boolean, timeoutMs: number): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (!done() && performance.now() < until) await nextFrame();
}

/** The control at `path` (case and spaces ignored); not_found lists the valid paths. */
export function findControl(studio: Studio, path: string): Control {
  const controls = listControls(studio);
  const wanted = normalise(path);
  const found = controls.find(
    (c) => normalise(c.path) === wanted || c.aliases?.some((a) => normalise(a) === wanted),
  );
  if (found) return found;
  const hint =
    path.startsWith('Properties/') && !studio.store.state.selection
      ? ' No layer is selected: set Layers/selected first.'
      : '';
  throw new RpcError({
    code: 'not_found',
    message: `No control "${path}".${hint}`,
    remediation: `Valid paths now: ${controls.map((c) => c.path).join(', ')}.`,
  });
}

export function describeControls(studio: Studio): ControlInfo[] {
  return listControls(studio).map(({ get, set: _set, aliases: _aliases, ...info }) => ({
    ...info,
    value: get(),
  }));
}
