/**
 * Every renderQueue.* command, in one place: the item commands edit the document's queue (pure), the job
 * commands run it through a session's RenderQueueService. src/session.ts adds them to the engine's catalog.
 */
import type { AnyCommand } from '../../../engine/index.js';
import type { RenderQueueService } from '../service.js';
import { queueItemCommands } from './items.js';
import { jobCommands } from './render.js';

/** renderQueue.add/remove/clear/list/render/stop, bound to `service` (list shows its live statuses). */
export function renderQueueCommands(service: RenderQueueService): AnyCommand[] {
  return [...queueItemCommands(service.statusOf), ...jobCommands(service)];
}

export { queueItemCommands } from './items.js';
