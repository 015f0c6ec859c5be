/** The Project panel's line for a footage item. */
import type { FootageItem } from '../../../engine/model.js';

const secs = (s: number | null | undefined) => `${Number((s ?? 0).toFixed(2))}s`;

/** A footage item's line: what it is made of (a sound file has no picture size to show). */
export function footageFacts(item: FootageItem): string {
  const media = item.media;
  const size = `${item.width}×${item.height}`;
  if (media?.kind === 'audio') return `sound · ${secs(media.duration)} · ${item.format}`;
  if (media?.kind === 'video')
    return `${size} · ${Number((media.frameRate ?? 0).toFixed(3))} fps · ${secs(media.duration)}${media.audio ? ' · sound' : ''}`;
  if (media?.kind === 'sequence') return `${size} · ${media.frameCount} frames · ${item.format}`;
  return `${size} · ${item.format}`;
}
