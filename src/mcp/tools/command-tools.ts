/** Listing and running engine commands: command_list, command_run, and their older names. */
import { z } from 'zod';
import { COMMAND_TOOL, READ_ONLY_TOOL, defineTool, fromExecute, type ToolSpec } from './types.js';

const listInput = z.strictObject({
  filter: z
    .string()
    .optional()
    .describe('Only commands whose id, title, category or description contains this text.'),
  enabled_only: z.boolean().optional().describe('Only commands that can run now.'),
  schemas: z.boolean().optional().describe("Include each command's params JSON Schema."),
});

const runInput = z.strictObject({
  id: z.string().min(1).describe('Command id from command_list, e.g. "comp.new".'),
  params: z.record(z.string(), z.unknown()).optional().describe("The command's params (see its schema)."),
});

function listTool(name: string, title: string, description: string): ToolSpec {
  return defineTool({
    name,
    title,
    description,
    hints: READ_ONLY_TOOL,
    input: listInput,
    async run(args, ctx) {
      const commands = await ctx.backend.list({
        filter: args.filter,
        enabledOnly: args.enabled_only,
        schemas: args.schemas,
      });
      return { kind: 'json', value: { count: commands.length, commands } };
    },
  });
}

function runTool(name: string, title: string, description: string): ToolSpec {
  return defineTool({
    name,
    title,
    description,
    hints: COMMAND_TOOL,
    input: runInput,
    longRunning: true,
    async run(args, ctx) {
      const running = ctx.backend.execute(args.id, args.params ?? {}, {
        signal: ctx.signal,
        onProgress: ctx.onProgress,
      });
      // A render takes its snapshot as it starts: later calls (edits, inspection) may go on meanwhile.
      if (ctx.backend.traits(args.id).detachesFromCallOrder) ctx.release?.();
      return fromExecute(await running);
    },
  });
}

export const commandList = listTool(
  'command_list',
  'List Commands',
  "Lists the engine command catalog: ids, titles, whether each can run now, annotations, and (schemas: true) each command's params JSON Schema. Run a command with command_run.",
);
export const listCommands = listTool(
  'list_commands',
  'List Commands (older name)',
  'Older name of command_list, kept for existing workflows; same arguments and result.',
);
export const commandRun = runTool(
  'command_run',
  'Run Command',
  'Runs one engine command by id with its params and returns its result; each edit is one undo step. A blocking renderQueue.render reports MCP progress (send _meta.progressToken) and stops on notifications/cancelled.',
);
export const executeCommand = runTool(
  'execute_command',
  'Run Command (older name)',
  'Older name of command_run, kept for existing workflows; same arguments and result.',
);
