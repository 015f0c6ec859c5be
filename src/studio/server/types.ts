import type { AppEvents } from '../protocol.js';

/** The render queue's progress, as the service reports it and the pages receive it. */
export type RenderProgressListener = (progress: AppEvents['event.renderProgress']) => void;
