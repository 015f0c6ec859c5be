/**
 * MCP and bridge tools that are not engine commands and cannot be confined: they run arbitrary code or
 * drive a user interface whose file dialogs and menus reach the whole machine.
 */
import type { ErrorInfo } from '../engine/index.js';
import { refusedWhileConfined, type RestartHint } from './errors.js';

/** Tool name -> why it cannot be confined. */
export const UNCONFINABLE_TOOLS: Readonly<Record<string, string>> = {
  run_script: 'scripts run arbitrary code, which confinement cannot sandbox.',
  ui_click: "it drives the app's user interface, whose dialogs reach any file.",
  ui_key: "it drives the app's user interface, whose dialogs reach any file.",
  ui_type: "it drives the app's user interface, whose dialogs reach any file.",
  ui_drag: "it drives the app's user interface, whose dialogs reach any file.",
  ui_set: "it drives the app's user interface, whose dialogs reach any file.",
  script_ui: 'scripts run arbitrary code, which confinement cannot sandbox.',
  control: "it drives the app's user interface, whose dialogs reach any file.",
};

/** null when the tool may run; refused_while_confined for the tools above when confined. */
export function checkToolName(toolName: string, confined: boolean, restart?: RestartHint): ErrorInfo | null {
  if (!confined) return null;
  const why = Object.hasOwn(UNCONFINABLE_TOOLS, toolName) ? UNCONFINABLE_TOOLS[toolName] : undefined;
  return why ? refusedWhileConfined(toolName, why, restart) : null;
}
