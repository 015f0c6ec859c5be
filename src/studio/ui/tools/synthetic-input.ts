/**
 * Input an agent's UI tools make at CSS pixel points: the element at the point receives the same event
 * sequence a person's mouse or keyboard produces (pointer + mouse events, focus, click/dblclick; keydown and
 * keyup on the focused element; typed text through the native value setter and an `input` event). The page's
 * own drags listen on window, so these behave exactly like real ones. The few default actions a browser
 * performs only for trusted events (activating a button with Enter/Space, typing a character, Tab) are done here.
 */
import type { Hit, Modifier, Point } from '../../protocol.js';
import { RpcError } from '../live/rpc-error.js';
import { describe } from './describe.js';

type Button = 'left' | 'right' | 'middle';
const BUTTON_CODE: Record<Button, number> = { left: 0, middle: 1, right: 2 };
const BUTTONS_MASK: Record<Button, number> = { left: 1, middle: 4, right: 2 };
const DRAG_STEPS = 10;

const nextFrame = () => new Promise<void>((r) => requestAnimationFrame(() => r()));

function modifierKeys(modifiers: readonly Modifier[] = []) {
  return {
    shiftKey: modifiers.includes('shift'),
    ctrlKey: modifiers.includes('ctrl'),
    altKey: modifiers.includes('alt'),
    metaKey: modifiers.includes('meta'),
  };
}

function pointerInit(
  p: Point,
  button: Button,
  pressed: boolean,
  modifiers?: readonly Modifier[],
  detail = 1,
) {
  return {
    bubbles: true,
    cancelable: true,
    composed: true,
    view: window,
    clientX: p.x,
    clientY: p.y,
    screenX: p.x + window.screenX,
    screenY: p.y + window.screenY,
    button: BUTTON_CODE[button],
    buttons: pressed ? BUTTONS_MASK[button] : 0,
    detail,
    pointerId: 1,
    pointerType: 'mouse',
    isPrimary: true,
    ...modifierKeys(modifiers),
  };
}

function at(p: Point): Element | null {
  if (!Number.isFinite(p.x) || !Number.isFinite(p.y)) {
    throw new RpcError({
      code: 'bad_argument',
      message: `Point (${p.x}, ${p.y}) is not a pair of finite numbers.`,
      remediation:
        'Pass CSS pixel coordinates inside the page (page.control layout lists panels and buttons).',
    });
  }
  return document.elementFromPoint(p.x, p.y);
}

/**
 * The element a press at `p` starts on. Off the page there is none, and answering `hit: null` as a success let
 * an agent go on as if it had clicked (coordinates of a screenshot taken at another size, or device pixels).
 */
function pressedAt(p: Point): Element {
  const el = at(p);
  if (el) return el;
  throw new RpcError({
    code: 'bad_argument',
    message: `Point (${p.x}, ${p.y}) is outside the page (${window.innerWidth}x${window.innerHeight} CSS pixels): nothing was pressed.`,
    remediation:
      'Pass CSS pixel coordinates inside the page: control {"action": "layout"} gives the panels\' and buttons\' boxes.',
  });
}

/** Focus as a mouse press gives it: the focusable element pressed, or nothing (the body). */
function focusFrom(el: Element): void {
  const focusable = el.closest<HTMLElement>('input, textarea, select, button, a[href], [tabindex]');
  if (focusable) focusable.focus({ preventScroll: true });
  else (document.activeElement as HTMLElement | null)?.blur?.();
}

function press(el: Element, p: Point, button: Button, modifiers?: readonly Modifier[], detail = 1): void {
  el.dispatchEvent(new PointerEvent('pointerdown', pointerInit(p, button, true, modifiers, detail)));
  el.dispatchEvent(new MouseEvent('mousedown', pointerInit(p, button, true, modifiers, detail)));
  if (button === 'left') focusFrom(el);
}

function release(el: Element, p: Point, button: Button, modifiers?: readonly Modifier[], detail = 1): void {
  el.dispatchEvent(new PointerEvent('pointerup', pointerInit(p, button, false, modifiers, detail)));
  el.dispatchEvent(new MouseEvent('mouseup', pointerInit(p, button, false, modifiers, detail)));
}

export async function click(
  p: Point & { button?: Button; count?: number; modifiers?: Modifier[] },
): Promise<{ hit: Hit | null }> {
  const el = pressedAt(p);
  const hit = describe(el);
  const button = p.button ?? 'left';
  const count = Math.max(1, Math.min(3, p.count ?? 1));
  for (let detail = 1; detail <= count; detail++) {
    const target = detail === 1 ? el : (at(p) ?? el);
    press(target, p, button, p.modifiers, detail);
    const up = at(p) ?? target;
    release(up, p, button, p.modifiers, detail);
    if (button === 'left')
      up.dispatchEvent(new MouseEvent('click', pointerInit(p, button, false, p.modifiers, detail)));
    else if (button === 'right')
      up.dispatchEvent(new MouseEvent('contextmenu', pointerInit(p, button, false, p.modifiers, detail)));
    else up.dispatchEvent(new MouseEvent('auxclick', pointerInit(p, button, false, p.modifiers, detail)));
    if (detail === 2 && button === 'left')
      up.dispatchEvent(new MouseEvent('dblclick', pointerInit(p, button, false, p.modifiers, 2)));
    // Let the page re-render between clicks of a double click, as a person's 100 ms would.
    if (detail < count) await nextFrame();
  }
  await nextFrame();
  return { hit };
}

export async function drag(p: {
  from: Point;
  to: Point;
  button?: Button;
  modifiers?: Modifier[];
}): Promise<{ from: Hit | null; to: Hit | null }> {
  const button = p.button ?? 'left';
  // The release may be off the page (a person's drag can end outside the window); the press cannot.
  const start = pressedAt(p.from);
  const from = describe(start);
  press(start, p.from, button, p.modifiers);
  for (let i = 1; i <= DRAG_STEPS; i++) {
    await nextFrame();
    const point = {
      x: p.from.x + ((p.to.x - p.from.x) * i) / DRAG_STEPS,
      y: p.from.y + ((p.to.y - p.from.y) * i) / DRAG_STEPS,
    };
    const over = at(point) ?? document.body;
    over.dispatchEvent(new PointerEvent('pointermove', pointerInit(point, button, true, p.modifiers)));
    over.dispatchEvent(new MouseEvent('mousemove', pointerInit(point, button, true, p.modifiers)));
  }
  const end = at(p.to) ?? document.body;
  const to = describe(end);
  release(end, p.to, button, p.modifiers);
  await nextFrame();
  return { from, to };
}

export function hitTest(p: Point): { hit: Hit | null } {
  return { hit: describe(at(p)) };
}

const isTextField = (el: Element | null): el is HTMLInputElement | HTMLTextAreaElement =>
  el instanceof HTMLTextAreaElement ||
  (el instanceof HTMLInputElement &&
    !['checkbox', 'radio', 'button', 'submit', 'color', 'range'].includes(el.type));

/** Replaces the field's selection with `text` the way typing does: native setter, then an `input` event. */
function insertText(
  el: HTMLInputElement | HTMLTextAreaElement,
  text: string,
  inputType = 'insertText',
): void {
  const start = el.selectionStart ?? el.value.length;
  const end = el.selectionEnd ?? el.value.length;
  const deleting = inputType === 'deleteContentBackward' && start === end;
  const from = deleting ? Math.max(0, start - 1) : start;
  const next = el.value.slice(0, from) + text + el.value.slice(end);
  const proto =
    el instanceof HTMLTextAreaElement ? HTMLTextAreaElement.prototype : HTMLInputElement.prototype;
  // The native setter, not `el.value =`: frameworks track the last value they set and would ignore ours.
  Object.getOwnPropertyDescriptor(proto, 'value')?.set?.call(el, next);
  const caret = from + text.length;
  el.setSelectionRange?.(caret, caret);
  el.dispatchEvent(new InputEvent('input', { bubbles: true, inputType, data: text || null }));
}

export async function type(p: { text: string }): Promise<{ target: Hit | null; value?: string }> {
  const el = document.activeElement;
  if (!isTextField(el)) {
    throw new RpcError({
      code: 'bad_argument',
      message: `No text field has the focus (the focus is on ${describe(el)?.label || el?.tagName.toLowerCase() || 'nothing'}).`,
      remediation: 'Click a text field first (a click on a numeric field opens its text box), then type.',
    });
  }
  insertText(el, p.text);
  await nextFrame();
  return { target: describe(el), value: el.value };
}

function focusNext(backwards: boolean): void {
  const all = [
    ...document.querySelectorAll<HTMLElement>('input, select, textarea, button, [tabindex]'),
  ].filter((e) => e.tabIndex >= 0 && !(e as HTMLButtonElement).disabled && e.offsetParent !== null);
  const i = all.indexOf(document.activeElement as HTMLElement);
  const next = all[(i + (backwards ? -1 : 1) + all.length) % all.length];
  next?.focus();
}

export async function key(p: { key: string; modifiers?: Modifier[] }): Promise<{ target: Hit | null }> {
  const target = document.activeElement ?? document.body;
  const init = { key: p.key, bubbles: true, cancelable: true, composed: true, ...modifierKeys(p.modifiers) };
  const proceed = target.dispatchEvent(new KeyboardEvent('keydown', init));
  const plain = !init.ctrlKey && !init.metaKey && !init.altKey;
  if (proceed && plain) defaultAction(target, p.key, init.shiftKey);
  (document.activeElement ?? target).dispatchEvent(new KeyboardEvent('keyup', init));
  await nextFrame();
  return { target: describe(target) };
}

/** What a browser does for a trusted key press that the page did not prevent. */
function defaultAction(target: Element, key: string, shift: boolean): void {
  if (key === 'Tab') return focusNext(shift);
  if (isTextField(target)) {
    if (key.length === 1) insertText(target, key);
    else if (key === 'Backspace') insertText(target, '', 'deleteContentBackward');
    else if (key === 'Enter') target.form?.requestSubmit();
    return;
  }
  if (
    (key === 'Enter' || key === ' ') &&
    target instanceof HTMLElement &&
    target.matches('button, [role=tab], a[href]')
  ) {
    target.click();
  }
}
