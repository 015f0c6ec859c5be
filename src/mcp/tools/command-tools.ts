/** Listing and running engine commands: command_list, command_run, and their older names. */
import { z } from 'zod';
import { similarCommands } from '../../engine/index.js';
import type { Backend } from '../backend.js';
import { catalogPage, type CatalogPage } from './catalog-page.js';
import {
  COMMAND_TOOL,
  READ_ONLY_TOOL,
  defineTool,
  fromExecute,
  imageOutcome,
  isPlainObject,
  type ToolOutcome,
  type ToolSpec,
} from './types.js';

const listInput = z.strictObject({
  filter: z
    .string()
    .optional()
    .describe('Only commands whose id, title, category or description contains this text (any case).'),
  category: z
    .string()
    .optional()
    .describe(
      'Only the commands of this category (any case), e.g. "Layer"; an unknown one is refused with the list.',
    ),
  ids: z
    .array(z.string().min(1))
    .optional()
    .describe('Only these command ids, e.g. ["property.set", "property.setKeyframe"].'),
  enabled_only: z.boolean().optional().describe('Only commands that can run now.'),
  schemas: z
    .boolean()
    .optional()
    .describe("Include each listed command's params JSON Schema (ask for the commands you need)."),
  offset: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      'Where the page starts (default 0). A result over 16 KB is cut: it says next_offset, the offset of the next page.',
    ),
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
      const matching = await ctx.backend.list({
        filter: args.filter,
        category: args.category,
        ids: args.ids,
        enabledOnly: args.enabled_only,
        schemas: args.schemas,
      });
      if (args.category && !matching.length) {
        const all = await ctx.backend.list({});
        const categories = [...new Set(all.map((c) => c.category))];
        if (!categories.some((c) => c.toLowerCase() === args.category!.toLowerCase()))
          return {
            kind: 'error',
            error: {
              code: 'bad_argument',
              message: `No command category "${args.category}".`,
              remediation: `Pass one of: ${categories.join(', ')}.`,
            },
          };
      }
      const page = catalogPage(matching, args.offset ?? 0);
      if (args.ids?.length) await noteUnknownIds(page, args.ids, ctx.backend);
      return { kind: 'json', value: page };
    },
  });
}

/**
 * Names the asked ids that no command has, with what each may have meant: an empty list alone reads as "no such
 * commands are enabled" or "the filter matched nothing", and the caller cannot tell its typo from those.
 */
async function noteUnknownIds(page: CatalogPage, ids: string[], backend: Backend) {
  const known = (await backend.list({})).map((c) => c.id);
  const unknown = [...new Set(ids)].filter((id) => !known.includes(id));
  if (!unknown.length) return;
  page.unknown_ids = unknown;
  const hints = unknown.map((id) => {
    const near = similarCommands(id, known);
    return `"${id}"${near.length ? ` (similar: ${near.join(', ')})` : ''}`;
  });
  const note = `No command has the id ${hints.join('; ')}. Call command_list without ids, or with filter, to find the id.`;
  page.note = page.note ? `${note} ${page.note}` : note;
}

/**
 * A result carrying an image (frame.preview) goes back as one, as render_preview's does: a model sees the
 * picture, where base64 in JSON text was tens of kilobytes of its context it cannot look at.
 */
function asImage(outcome: ToolOutcome): ToolOutcome {
  return (outcome.kind === 'json' && imageOutcome(outcome.value)) || outcome;
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
      return asImage(fromExecute(await running));
    },
    asTask(args, backend) {
      // Bridge calls stay polling (the app renders); a wait:false call already answers at once.
      if (backend.kind !== 'headless') return null;
      const job = backend.traits(args.id as string).backgroundJob;
      const params = args.params as Record<string, unknown> | undefined;
      if (!job || params?.[job.waitParam] === false) return null;
      // A render while one runs is refused at once (render_in_progress) by the blocking path: as a task it was
      // accepted, and the task then completed with that refusal.
      if (backend.rendering?.()) return null;
      // A background job is a render of a snapshot; its progress message names the item and frame.
      return {
        label: `${name} ${String(args.id)}`,
        starting: `rendering: taking the snapshot`,
        status: (info) => `rendering ${info.message ?? ''}`.trimEnd(),
        // A cancel that lands after the last frame stops nothing: the summary counts no stopped item, the
        // files and manifest are whole on disk, and the task reports them instead of reading cancelled.
        ranToEnd: (result) =>
          isPlainObject(result.structuredContent) && result.structuredContent.stopped === 0,
      };
    },
  });
}

export const commandList = listTool(
  'command_list',
  'List Commands',
  "Lists the engine command catalog: ids, titles, categories, whether each can run now, annotations, and (schemas: true) each command's params JSON Schema, with units, ranges and defaults, and a short example of its params. Narrow it with category, filter or ids; a result over 16 KB is cut into pages (next_offset says where the next starts). Run a command with command_run.",
);
export const listCommands = listTool(
  'list_commands',
  'List Commands (older name)',
  'Older name of command_list, kept for existing workflows; same arguments and result.',
);
export const commandRun = runTool(
  'command_run',
  'Run Command',
  "Runs one engine command by id with its params and returns its result; each edit is one undo step. A blocking renderQueue.render reports MCP progress (send _meta.progressToken) and stops on notifications/cancelled, removing its unfinished files. Long renders: a client's request timeout (often 60 s) cancels them too, so send a progress token and let progress reset the timeout, or render with params {wait: false} and poll renderQueue.list until the item is done.",
);
export const executeCommand = runTool(
  'execute_command',
  'Run Command (older name)',
  'Older name of command_run, kept for existing workflows; same arguments and result. Long renders: a request timeout cancels a blocking renderQueue.render (its unfinished files are removed); send _meta.progressToken so progress resets the timeout, or render with {wait: false} and poll renderQueue.list.',
);
