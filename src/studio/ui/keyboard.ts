/**
 * The studio's shortcuts: Space play/pause, Left/Right step, Home/End jump, Ctrl/Cmd+Z undo, Ctrl/Cmd+Shift+Z
 * redo. Ignored while typing in a field, so text editing keeps its own keys.
 */
import { jump, step } from './panels/transport.js';
import type { Studio } from './studio.js';

/** Inputs that take no typing: a shortcut pressed while one has the focus (after a click) is the page's. */
const CLICKED_INPUTS = new Set(['checkbox', 'radio', 'button', 'submit', 'reset']);

function isTyping(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  if (target instanceof HTMLInputElement && CLICKED_INPUTS.has(target.type)) return false;
  return target.isContentEditable || target.closest('input, textarea, select') !== null;
}

export function handleShortcut(studio: Studio, e: KeyboardEvent): boolean {
  if (isTyping(e.target)) return false;
  const mod = e.ctrlKey || e.metaKey;
  if (mod && e.key.toLowerCase() === 'z') {
    void (e.shiftKey ? studio.redo() : studio.undo());
    return true;
  }
  if (mod || e.altKey) return false;
  switch (e.key) {
    case ' ':
      studio.player.toggle();
      return true;
    case 'ArrowLeft':
      step(studio, -1);
      return true;
    case 'ArrowRight':
      step(studio, 1);
      return true;
    case 'Home':
      jump(studio, 'start');
      return true;
    case 'End':
      jump(studio, 'end');
      return true;
    default:
      return false;
  }
}

/** Listens on the document; returns the function that stops listening. */
export function installShortcuts(studio: Studio): () => void {
  const onKey = (e: KeyboardEvent) => {
    if (!e.defaultPrevented && handleShortcut(studio, e)) e.preventDefault();
  };
  document.addEventListener('keydown', onKey);
  return () => document.removeEventListener('keydown', onKey);
}
