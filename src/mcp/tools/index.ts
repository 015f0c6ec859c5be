/**
 * The tool table. Each entry is one ToolSpec; `tools/list` and `tools/call` are generated from it.
 * Bridge mode appends the UI tools (see ui-tools.ts), one entry each.
 */
import { batch, commandBatch } from './batch-tools.js';
import { commandList, commandRun, executeCommand, listCommands } from './command-tools.js';
import { capabilitiesTool, docInspect } from './info-tools.js';
import { isAppOnly } from '../player/apps.js';
import { playerFrame, previewPlayer } from './preview-player.js';
import type { RemoteNode } from '../remote/remote-node.js';
import { getOutputTool } from './get-output.js';
import { uploadTools } from './upload-tools.js';
import { renderPreview } from './render-preview.js';
import { runScript } from './run-script.js';
import type { ToolSpec } from './types.js';
import { uiTools } from './ui-tools.js';

export interface ToolTableOptions {
  version: string;
  /** Adds the app-driving UI tools (bridge mode). */
  bridge?: boolean;
  /** Over HTTP: the upload tools (put_sample*) and get_output of this render node (see docs/remote.md). */
  remote?: RemoteNode;
}

export function toolTable(options: ToolTableOptions): ToolSpec[] {
  const table: ToolSpec[] = [
    commandList,
    commandRun,
    commandBatch,
    docInspect,
    renderPreview,
    // The model's view of the tools: app-only ones (player_frame) are the preview player's, not the model's.
    capabilitiesTool(
      () => table.filter((t) => !isAppOnly(t)).map((t) => t.name),
      options.version,
      options.remote,
    ),
    listCommands,
    executeCommand,
    batch,
    runScript,
    previewPlayer,
    playerFrame,
    ...(options.bridge ? uiTools : []),
    ...(options.remote
      ? [...uploadTools(options.remote.uploads), getOutputTool(options.remote.outputs)]
      : []),
  ];
  return table;
}

export type { ToolSpec, ToolContext, ToolOutcome } from './types.js';
