/**
 * Every drag in the studio: pointerdown on the element, then pointermove/pointerup listened to on window. No
 * pointer capture and no HTML5 drag and drop, so the events the UI tools synthesise at window points behave
 * exactly like a person's.
 */
export interface DragHandlers {
  move(event: PointerEvent): void;
  up(event: PointerEvent): void;
}

export function windowDrag(handlers: DragHandlers): void {
  const move = (e: PointerEvent) => handlers.move(e);
  const up = (e: PointerEvent) => {
    window.removeEventListener('pointermove', move);
    window.removeEventListener('pointerup', up);
    window.removeEventListener('pointercancel', up);
    handlers.up(e);
  };
  window.addEventListener('pointermove', move);
  window.addEventListener('pointerup', up);
  window.addEventListener('pointercancel', up);
}
