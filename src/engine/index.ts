/** The engine's public surface: the catalog of built-in commands and the Engine that runs them. */
import type { AnyCommand } from './catalog.js';
import { compCommands } from './commands/comp.js';
import { editCommands } from './commands/edit.js';
import { effectCommands } from './commands/effect.js';
import { fileCommands } from './commands/file.js';
import { layerAddCommands } from './commands/layer-add.js';
import { layerEditCommands } from './commands/layer-edit.js';
import { projectCommands } from './commands/project.js';
import { propertyCommands } from './commands/property.js';
import {
  renderQueueAdd,
  renderQueueClear,
  renderQueueList,
  renderQueueRemove,
  type StatusSource,
} from './commands/render-queue.js';

export interface EngineCommandOptions {
  /** Live render status per queue item; without a render service every item reads as queued. */
  renderStatus?: StatusSource;
}

/** Every command the engine itself defines (rendering commands are added by src/render). */
export function engineCommands(options: EngineCommandOptions = {}): AnyCommand[] {
  return [
    ...projectCommands,
    ...fileCommands,
    ...compCommands,
    ...layerAddCommands,
    ...layerEditCommands,
    ...propertyCommands,
    ...effectCommands,
    ...editCommands,
    renderQueueAdd,
    renderQueueRemove,
    renderQueueClear,
    renderQueueList(options.renderStatus ?? (() => undefined)),
  ] as AnyCommand[];
}

export * from './catalog.js';
export * from './engine.js';
export * from './errors.js';
export * from './model.js';
export * from './output-formats.js';
export { valueAt, cubicBezier } from './keyframes.js';
export { inspectDocument, frameCount } from './inspect.js';
export { framePath, hasFrameField, resolveOutputFormat } from './output-template.js';
export type { EnginePorts, ImageInfo } from './ports.js';
export type { ItemStatus } from './commands/render-queue.js';
