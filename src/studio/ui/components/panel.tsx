/** A panel: a header with its name (and optional actions) over a scrolling body. `data-panel` names it for tools. */
import type { ComponentChildren, JSX } from 'preact';
import type { PanelName } from '../../protocol.js';

export function Panel(props: {
  name: PanelName;
  class?: string;
  actions?: ComponentChildren;
  children: ComponentChildren;
  /** Extra header content shown after the name (a tab strip replaces the plain name). */
  title?: ComponentChildren;
}): JSX.Element {
  return (
    <section class={`panel ${props.class ?? ''}`} data-panel={props.name} aria-label={props.name}>
      <header class="panel-header">
        {props.title ?? <h2 class="panel-title">{props.name}</h2>}
        <div class="panel-actions">{props.actions}</div>
      </header>
      <div class="panel-body">{props.children}</div>
    </section>
  );
}
