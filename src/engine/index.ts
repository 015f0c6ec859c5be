/**
 * The engine's public surface: the catalog of built-in commands and the Engine that runs them. The render
 * queue's commands (renderQueue.*) and the frame commands are added by src/render (see src/session.ts).
 */
import type { AnyCommand } from './catalog.js';
import { compCommands } from './commands/comp.js';
import { compFromFootage } from './commands/comp-from-footage.js';
import { editCommands } from './commands/edit.js';
import { effectCommands } from './commands/effect.js';
import { fileCommands } from './commands/file.js';
import { footageCommands } from './commands/footage.js';
import { inputCommands } from './commands/input.js';
import { layerAddCommands } from './commands/layer-add.js';
import { layerAudioCommands } from './commands/layer-audio.js';
import { layerEditCommands } from './commands/layer-edit.js';
import { layerFit } from './commands/layer-fit.js';
import { layerSetTimeMap } from './commands/layer-time.js';
import { projectCommands } from './commands/project.js';
import { propertyCommands } from './commands/property.js';

/** Every command the engine itself defines (rendering and the render queue are added by src/render). */
export function engineCommands(): AnyCommand[] {
  return [
    ...projectCommands,
    ...fileCommands,
    ...footageCommands,
    ...compCommands,
    compFromFootage,
    ...layerAddCommands,
    ...layerEditCommands,
    layerSetTimeMap,
    layerFit,
    ...layerAudioCommands,
    ...propertyCommands,
    ...effectCommands,
    ...inputCommands,
    ...editCommands,
  ] as AnyCommand[];
}

export * from './catalog.js';
export * from './engine.js';
export * from './core.js';
export * from './model.js';
export { ErrorInfoSchema } from './error-info-schema.js';
export { inspectDocument, frameCount, type CompSummary } from './inspect.js';
export { fillItemOutput, framePath, hasFrameField, resolveOutputFormat } from './output-template.js';
export type { EnginePorts, ImageInfo, MediaFile, MediaProbe } from './ports.js';
export { applyProps, footageProps, type ProbedFootage } from './apply-props.js';
export { checkProps, propsFromText, requireProps, inputsOf } from './template-inputs.js';
