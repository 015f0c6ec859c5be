/**
 * Command errors as small toasts: the message and what to do about it; a command's warnings in amber. Each toast is its own alert; the list
 * around them is not a live region too (an alert inside a polite region was announced twice).
 */
import type { JSX } from 'preact';
import { useStudio, useStudioState } from '../studio.js';
import { Icon } from './icons.js';

export function Toasts(): JSX.Element {
  const studio = useStudio();
  const toasts = useStudioState((s) => s.toasts);
  return (
    <div class="toasts" aria-label="Messages">
      {toasts.map((t) => (
        <div class={t.warning ? 'toast toast-warning' : 'toast'} key={t.id} role="alert" title={t.detail}>
          <div class="toast-main">
            <strong>{t.message}</strong>
            {t.remediation && <span>{t.remediation}</span>}
          </div>
          {t.code && <code class="toast-code">{t.code}</code>}
          <button class="icon-button" aria-label="Dismiss message" onClick={() => studio.dismissToast(t.id)}>
            <Icon name="close" size={10} />
          </button>
        </div>
      ))}
    </div>
  );
}
