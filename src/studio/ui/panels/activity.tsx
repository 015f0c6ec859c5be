/**
 * Every command applied to the session, newest first, with who made it (agent, page, pipeline, app), its title
 * and result or error; Undo and Redo (disabled when there is nothing to undo or redo).
 */
import type { JSX } from 'preact';
import { Icon } from '../components/icons.js';
import { Panel } from '../components/panel.js';
import { useStudio, useStudioState } from '../studio.js';

export function ActivityPanel(props: { title: JSX.Element }): JSX.Element {
  const studio = useStudio();
  const activity = useStudioState((s) => s.activity);
  const canUndo = useStudioState((s) => s.canUndo);
  const canRedo = useStudioState((s) => s.canRedo);
  const me = useStudioState((s) => s.actorName);

  const actions = (
    <>
      <button class="button" aria-label="Undo" disabled={!canUndo} onClick={() => void studio.undo()}>
        <Icon name="undo" size={12} /> Undo
      </button>
      <button class="button" aria-label="Redo" disabled={!canRedo} onClick={() => void studio.redo()}>
        <Icon name="redo" size={12} /> Redo
      </button>
    </>
  );

  return (
    <Panel name="Activity" title={props.title} actions={actions}>
      <ol class="activity-list" aria-label="Commands applied, newest first">
        {activity.map((e) => (
          <li
            key={e.seq}
            class={`activity actor-${e.actor.kind} ${e.ok ? '' : 'is-error'}`}
            role="row"
            aria-label={`${e.actor.kind} ${e.actor.name}: ${e.title} ${e.ok ? 'ok' : `failed: ${e.error?.code ?? ''}`}`}
          >
            <span class={`actor-badge actor-${e.actor.kind}`} title={e.actor.name}>
              {e.actor.kind}
            </span>
            <div class="activity-main">
              <div class="activity-line">
                <strong>{e.title}</strong>
                {e.count > 1 && <span class="count">×{e.count}</span>}
                <time class="muted" dateTime={e.at}>
                  {new Date(e.at).toLocaleTimeString([], { hour12: false })}
                </time>
              </div>
              <div class="activity-detail">
                <span class="muted">
                  {e.actor.kind === 'page' && e.actor.name === me ? 'this page' : e.actor.name}
                </span>
                <span class="muted mono">{e.command}</span>
                {e.ok && e.summary && <span class="summary">{e.summary}</span>}
              </div>
              {!e.ok && (
                // A refusal is read in full, with its remedy: it is what the person may need to act on.
                <div class="activity-error">
                  <span class="error-text">
                    {e.error?.code}: {e.error?.message}
                  </span>{' '}
                  <span class="muted">{e.error?.remediation}</span>
                </div>
              )}
            </div>
          </li>
        ))}
        {activity.length === 0 && <li class="empty">No commands yet.</li>}
      </ol>
    </Panel>
  );
}
