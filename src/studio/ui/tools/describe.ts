/** What an element is, as an agent needs to know it: role, accessible label, control path, tag (protocol Hit). */
import type { Hit } from '../../protocol.js';

const INTERACTIVE = 'button, input, select, textarea, a[href], canvas, [role], [data-control], [tabindex]';
const MAX_LABEL = 80;

function implicitRole(el: Element): string {
  const tag = el.tagName.toLowerCase();
  if (tag === 'input') {
    const type = (el as HTMLInputElement).type;
    if (type === 'checkbox') return 'checkbox';
    if (type === 'radio') return 'radio';
    if (type === 'range') return 'slider';
    if (type === 'button' || type === 'submit') return 'button';
    if (type === 'color') return 'color';
    return 'textbox';
  }
  const roles: Record<string, string> = {
    button: 'button',
    select: 'combobox',
    textarea: 'textbox',
    a: 'link',
    canvas: 'canvas',
    li: 'listitem',
    ul: 'list',
    ol: 'list',
    section: 'region',
    header: 'banner',
    h2: 'heading',
    h3: 'heading',
    output: 'status',
  };
  return roles[tag] ?? 'generic';
}

function labelOf(el: Element): string {
  const aria = el.getAttribute('aria-label');
  if (aria) return aria.slice(0, MAX_LABEL);
  const labelled = (el as HTMLInputElement).labels?.[0]?.textContent;
  const text = (labelled ?? el.textContent ?? '').replace(/\s+/g, ' ').trim();
  return text.slice(0, MAX_LABEL);
}

/** The nearest meaningful element at or above `target` (a span inside a button describes the button). */
export function meaningful(target: Element): Element {
  return target.closest(INTERACTIVE) ?? target;
}

export function describe(target: Element | null): Hit | null {
  if (!target) return null;
  const el = meaningful(target);
  // A container's control (the layer list is Layers/selected) is not that of a button or field inside it.
  const owner = el.closest('[data-control]');
  const control =
    owner && (owner === el || !el.matches('button, input, select, textarea'))
      ? (owner.getAttribute('data-control') ?? undefined)
      : undefined;
  return {
    role: el.getAttribute('role') ?? implicitRole(el),
    label: labelOf(el),
    ...(control !== undefined && { control }),
    tag: el.tagName.toLowerCase(),
  };
}

export interface Rect {
  x: number;
  y: number;
  width: number;
  height: number;
}

export function rectOf(el: Element): Rect {
  const r = el.getBoundingClientRect();
  const round = (n: number) => Math.round(n * 10) / 10;
  return { x: round(r.x), y: round(r.y), width: round(r.width), height: round(r.height) };
}
