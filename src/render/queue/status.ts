/** Live status of render queue items: kept by the render service, read by renderQueue.list. */

/** Not in the document (so a status change is not an undo step): a session's render service owns it. */
export interface ItemStatus {
  status: 'queued' | 'rendering' | 'done' | 'failed' | 'stopped';
  framesDone: number;
  framesTotal: number;
  files: number;
  /** The manifest of a done item (every file with its size and sha256), when it wrote files. */
  manifest?: string;
  error?: { code: string; message: string; remediation: string };
  /**
   * What an ended item's result says besides its files (silence where sound was asked for, footage left
   * unchecked, outputs replaced by another program): kept for renderQueue.list, the only report a background
   * render (wait:false, every render through the bridge) has.
   */
  warnings?: string[];
}

/** An item's live status, or undefined when it was never rendered in this session (it reads as queued). */
export type StatusSource = (itemId: string) => ItemStatus | undefined;
