/**
 * The keyboard of a list of tree items (the Project panel's items, the Layers panel's rows): one tab stop per
 * tree (the current item has tabIndex 0, the others -1), Up and Down move the focus, Enter picks the focused item
 * (selects a layer, activates a composition), Space too unless the item is already the picked one: then Space is
 * the studio's play and pause, as after a click on a row. Keys in a row's own controls (its buttons, menus,
 * fields) are theirs; Left, Right, Home and End stay the transport's.
 */

/** tabIndex of an item: 0 for the current one (or the first when none is), -1 for the rest. */
export const treeTabIndex = (current: boolean, index: number, anyCurrent: boolean): number =>
  current || (!anyCurrent && index === 0) ? 0 : -1;

export function onTreeKeyDown(
  e: KeyboardEvent,
  pick: (item: HTMLElement) => void,
  isPicked: (item: HTMLElement) => boolean,
): void {
  const item = e.target instanceof HTMLElement ? e.target : null;
  if (!item || item.getAttribute('role') !== 'treeitem' || e.ctrlKey || e.metaKey || e.altKey) return;
  const tree = item.closest('[role="tree"]');
  const items = tree ? [...tree.querySelectorAll<HTMLElement>('[role="treeitem"]')] : [item];
  const at = items.indexOf(item);
  if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
    items[at + (e.key === 'ArrowDown' ? 1 : -1)]?.focus();
  } else if (e.key === 'Enter' || (e.key === ' ' && !isPicked(item))) {
    pick(item);
  } else return;
  e.preventDefault();
  e.stopPropagation();
}
