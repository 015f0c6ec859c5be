/**
 * The render queue: its items with format, output, status and a live progress bar (event.renderProgress, from
 * whoever started the render); add the active composition, Render (wait: false, so it returns at once), Stop.
 */
import type { JSX } from 'preact';
import { TextField } from '../components/fields.js';
import { Icon } from '../components/icons.js';
import { Panel } from '../components/panel.js';
import { formatsWhere } from '../../../engine/output-formats.js';
import { activeComp, compositions } from '../state/doc.js';
import type { QueueItem } from '../state/studio-state.js';
import { useStudio, useStudioState } from '../studio.js';

export function RenderQueuePanel(props: { title: JSX.Element }): JSX.Element {
  const studio = useStudio();
  const doc = useStudioState((s) => s.doc);
  const queue = useStudioState((s) => s.queue);
  const progress = useStudioState((s) => s.progress);
  const comp = activeComp(doc);
  const names = new Map(compositions(doc).map((c) => [c.id, c.name]));
  const rendering = queue.some((q) => q.status === 'rendering');
  const run = (id: string, params: Record<string, unknown> = {}) =>
    studio.commands
      .run(id, params)
      .then(() => studio.refreshQueue())
      .catch(() => undefined);

  const actions = (
    <>
      <button
        class="button primary"
        aria-label="Render"
        disabled={rendering || queue.length === 0}
        onClick={() => void run('renderQueue.render', { wait: false })}
      >
        <Icon name="render" size={12} /> Render
      </button>
      <button
        class="button"
        aria-label="Stop render"
        disabled={!rendering}
        onClick={() => void run('renderQueue.stop')}
      >
        <Icon name="stop" size={12} /> Stop
      </button>
    </>
  );

  return (
    <Panel name="Render Queue" title={props.title} actions={actions}>
      <div class="inline-form">
        <TextField
          label="Output path for the active composition"
          placeholder={comp ? `/absolute/path/${comp.name}_[####].png` : 'No active composition'}
          value=""
          onCommit={(output) => comp && void run('renderQueue.add', { comp: comp.id, output: output.trim() })}
        />
        <span class="hint">Enter adds {comp ? `"${comp.name}"` : 'the active composition'} to the queue</span>
      </div>
      <ul class="queue-list" aria-label="Render queue items">
        {queue.map((item) => {
          // Live figures while it renders; after, the list's (a stopped item's files are gone: 0 done).
          const live = item.status === 'rendering' ? progress[item.id] : undefined;
          const done = live?.framesDone ?? item.framesDone;
          const total = live?.framesTotal ?? item.framesTotal;
          const pct = total > 0 ? Math.round((done / total) * 100) : 0;
          return (
            <li
              key={item.id}
              class={`queue-item status-${item.status}`}
              role="row"
              aria-label={`Render item ${item.id}`}
            >
              <div class="queue-line">
                <strong>{names.get(item.comp) ?? item.comp}</strong>
                <span class="badge">{item.format}</span>
                <span class={`status status-${item.status}`}>{item.status}</span>
                <button
                  class="icon-button"
                  aria-label={`Remove ${item.id} from the queue`}
                  disabled={item.status === 'rendering'}
                  onClick={() => void run('renderQueue.remove', { id: item.id })}
                >
                  <Icon name="close" size={10} />
                </button>
              </div>
              <div class="muted path" title={item.output}>
                {item.output}
              </div>
              <div
                class="progress"
                role="progressbar"
                aria-label={`Progress of ${item.id}`}
                aria-valuemin={0}
                aria-valuemax={100}
                aria-valuenow={pct}
                data-item={item.id}
              >
                <div class="progress-fill" style={{ width: `${pct}%` }} />
                <span class="progress-text">{progressText(item, done, total, pct)}</span>
              </div>
              {item.error && (
                <div class="error-text">
                  {item.error.message}
                  {item.error.remediation && <span class="remedy"> {item.error.remediation}</span>}
                </div>
              )}
              {/* A done item can still be wrong: silence where sound was asked for, footage left unchecked. */}
              {item.warnings?.map((w, i) => (
                <div key={i} class="warning-text">
                  ⚠ {w}
                </div>
              ))}
            </li>
          );
        })}
        {queue.length === 0 && <li class="empty">The queue is empty.</li>}
      </ul>
    </Panel>
  );
}

/** WAV, MP3, M4A: the composition's sound alone. */
const SOUND_ONLY = new Set<string>(formatsWhere((s) => s.sound === 'only'));

/**
 * What the bar says: frames for a picture; a percentage for a sound file (its "frames" are the composition's, a
 * count that means nothing of a WAV); a queued item's count is known once its render plans it, and before that
 * (or for one that failed before it began) nothing, as the status beside it says the rest.
 */
function progressText(item: QueueItem, done: number, total: number, pct: number): string {
  if (total <= 0) return item.status === 'queued' ? 'queued' : '';
  return SOUND_ONLY.has(item.format) ? `sound ${pct}%` : `${done}/${total} frames`;
}
