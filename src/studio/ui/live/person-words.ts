/**
 * What a toast says to a person. The engine's errors and warnings are written for agents: they name commands,
 * params and tools ("Invalid parameter "name" for layer.rename ... command_list with schemas shows it"). A
 * person sees the studio's controls, so a failure the studio knows is said in those words, chosen by the
 * error's code and the command and params the page sent, never by reading the message. Anything not listed
 * keeps the engine's words. The engine's answer itself is unchanged: an agent's ui script still gets it, and the
 * toast keeps it as its tooltip.
 */
import type { ErrorBody } from '../../protocol.js';
import { MAX_SIDE, type FootageItem, type Layer, type Project } from '../../../engine/model.js';
import { playsSoundOnly, sourceSeconds } from '../../../engine/shown-footage.js';

/** The command a page sent, as Commands.run got it. */
export interface Call {
  id: string;
  params: Record<string, unknown>;
}

type Said = { message: string; remediation: string };

/** What the page knows besides the call: the document now, and whether it ever showed a layer (by id). */
export interface PageKnows {
  doc: Project | null;
  hadLayer(id: string): boolean;
}

interface Rule {
  code: string;
  /** Command ids it applies to (any when absent). */
  commands?: readonly string[];
  /** Whether it applies, from the call and what the page knows now. */
  when?(call: Call, page: PageKnows): boolean;
  say(call: Call, page: PageKnows): Said;
}

const secs = (s: number) => `${+s.toFixed(2)} s`;

function comp(doc: Project | null, call: Call) {
  const id = typeof call.params.comp === 'string' ? call.params.comp : doc?.activeComp;
  const item = doc?.items.find((i) => i.id === id || (i.type === 'composition' && i.name === id));
  return item?.type === 'composition' ? item : null;
}

/** The layer the call names is not in the document now (another editor deleted it meanwhile). */
export function layerGone(doc: Project | null, call: Call): boolean {
  const ref = call.params.layer;
  if (typeof ref !== 'string') return false;
  const c = comp(doc, call);
  return !c || !c.layers.some((l) => l.id === ref || l.name === ref);
}

/** The layer the call names, in the document now. */
function layerOf(doc: Project | null, call: Call): Layer | null {
  return (
    comp(doc, call)?.layers.find((l) => l.id === call.params.layer || l.name === call.params.layer) ?? null
  );
}

/** The Properties rows of the transform parts a fit sets, that have keyframes. */
function keyedFitParts(layer: Layer): string[] {
  const t = layer.transform;
  return (
    [
      ['Anchor Point', t.anchorPoint],
      ['Position', t.position],
      ['Scale', t.scale],
    ] as const
  )
    .filter(([, p]) => p.keyframes.length > 0)
    .map(([name]) => name);
}

/** The footage item a comp.fromFootage call names. */
function footageOf(doc: Project | null, call: Call): FootageItem | null {
  const item = doc?.items.find((i) => i.id === call.params.footage || i.name === call.params.footage);
  return item?.type === 'footage' ? item : null;
}

/** Why the "+" beside a footage item cannot make its composition: a rate or a size no composition takes. */
function beyondComp(item: FootageItem | null): string | null {
  if (!item) return null;
  const rate = item.media?.frameRate ?? null;
  if (rate !== null && (rate > 240 || rate < 1))
    return `"${item.name}" runs at ${+rate.toFixed(3)} fps; a composition runs at 1 to 240 fps.`;
  if (item.width > MAX_SIDE || item.height > MAX_SIDE)
    return `"${item.name}" is ${item.width}x${item.height}; a composition is at most ${MAX_SIDE} pixels a side.`;
  return null;
}

const RULES: readonly Rule[] = [
  {
    code: 'bad_argument',
    commands: ['layer.fit'],
    when: (call, page) => (layerOf(page.doc, call)?.parent ?? null) !== null,
    say: (call, page) => ({
      message: `"${layerOf(page.doc, call)!.name}" is linked to a parent layer: its scale and position are in the parent's space, so a fit to the composition would not hold.`,
      remediation: 'Set its Parent to None in the Layers panel, then fit it.',
    }),
  },
  {
    code: 'bad_argument',
    commands: ['layer.fit'],
    when: (call, page) => {
      const layer = layerOf(page.doc, call);
      return !!layer && keyedFitParts(layer).length > 0;
    },
    say: (call, page) => {
      const layer = layerOf(page.doc, call)!;
      const parts = keyedFitParts(layer).join(', ');
      return {
        message: `"${layer.name}" has keyframes on ${parts}; a fit sets one value for the whole layer.`,
        remediation: `Remove them first (at each keyframe, the keyframe button beside ${parts} in Properties), then fit it.`,
      };
    },
  },
  {
    code: 'bad_argument',
    commands: ['comp.fromFootage'],
    when: (call, page) => beyondComp(footageOf(page.doc, call)) !== null,
    say: (call, page) => ({
      message: beyondComp(footageOf(page.doc, call))!,
      remediation:
        'Make a composition with New composition in the Project panel, and ask the agent to put the footage in it (fitted, if it is larger).',
    }),
  },
  {
    code: 'bad_argument',
    commands: ['layer.rename'],
    when: (call) => typeof call.params.name === 'string' && call.params.name.trim() === '',
    say: () => ({
      message: 'A layer needs a name.',
      remediation: 'Type one, or press Esc to keep the old name.',
    }),
  },
  {
    code: 'command_disabled',
    commands: ['edit.redo'],
    say: () => ({
      message: 'Nothing to redo.',
      remediation: 'Redo brings back what Undo took away, until the next edit (anyone’s) is made.',
    }),
  },
  {
    code: 'command_disabled',
    commands: ['edit.undo'],
    say: () => ({ message: 'Nothing to undo.', remediation: '' }),
  },
  {
    code: 'file_changed',
    commands: ['project.save'],
    say: () => ({
      message: 'Someone else saved this project file since you opened it (another session or an agent).',
      remediation:
        'To keep their version too, type another path in Save project as; Replace their version writes over it.',
    }),
  },
  {
    code: 'not_found',
    // A layer this page showed and no longer has (a made-up name in an agent's script is no deletion).
    when: (call, page) =>
      layerGone(page.doc, call) && typeof call.params.layer === 'string' && page.hadLayer(call.params.layer),
    say: () => ({
      message: 'That layer was deleted (by the agent, or in another tab), so your change was not made.',
      remediation: 'Undo in the Activity panel brings the layer back if it should not have gone.',
    }),
  },
  {
    code: 'not_found',
    when: (call, page) => typeof call.params.comp === 'string' && !comp(page.doc, call),
    say: () => ({
      message: 'That composition was deleted (by the agent, or in another tab), so your change was not made.',
      remediation: 'Undo in the Activity panel brings it back if it should not have gone.',
    }),
  },
];

/** The person's words for a failed command of the page, or null to show the engine's. */
export function errorForPerson(call: Call, error: ErrorBody, page: PageKnows): ErrorBody | null {
  const rule = RULES.find(
    (r) =>
      r.code === error.code &&
      (!r.commands || r.commands.includes(call.id)) &&
      (r.when?.(call, page) ?? true),
  );
  return rule ? { code: error.code, ...rule.say(call, page) } : null;
}

/**
 * The person's words for the warnings of a command that worked, or null to show the engine's. layer.setTimeMap
 * warns of one of two things, told apart by the result (never the message): frozen (Freeze on a sound file's
 * layer: it is silence), or neither frozen nor looping (a retime that leaves the out point wrong: where the
 * source ends, and the Timeline and Loop to fix it with, from the result and the document).
 */
export function warningsForPerson(
  call: Call,
  warnings: readonly string[],
  result: unknown,
  doc: Project | null,
): string[] | null {
  if (call.id !== 'layer.setTimeMap' || warnings.length !== 1) return null;
  const time = (result as { time?: { speed?: number; loop?: boolean; freezeAt?: number | null } } | null)
    ?.time;
  const c = comp(doc, call);
  const layer = c?.layers.find((l) => l.id === call.params.layer || l.name === call.params.layer);
  if (layer && time && time.freezeAt != null)
    return [
      `"${layer.name}" is sound only, and a frozen sound is silence: it is not heard while Freeze is on. Untick Freeze to hear it again; to hold it under a longer composition, turn on Loop instead.`,
    ];
  const length = doc && layer ? sourceSeconds(doc, layer) : null;
  if (!c || !layer || !time?.speed || time.loop || length === null) return null;
  const ends = layer.startTime + length / Math.abs(time.speed);
  const speed = `At speed ${+Math.abs(time.speed).toFixed(3)}${time.speed < 0 ? ' (reversed)' : ''}`;
  // A sound file's layer has nothing to show: what it lacks after its source ends is sound.
  const nothing = playsSoundOnly(doc!, layer) ? 'is silent' : 'shows nothing';
  if (layer.outPoint > ends)
    return [
      `${speed} the source of "${layer.name}" ends at ${secs(ends)}: the layer ${nothing} after that. Set its out point to ${secs(ends)} (drag the end of its bar in the Timeline), or turn on Loop.`,
    ];
  return [
    `${speed} the source of "${layer.name}" plays until ${secs(ends)}, but the layer ends at ${secs(layer.outPoint)}. To play it all, drag the end of its bar in the Timeline to ${secs(Math.min(ends, c.duration))}.`,
  ];
}
