/** Read-only views: doc_inspect (the project and active composition) and capabilities (this host). */
import { z } from 'zod';
import { checkToolName } from '../../confinement/tools.js';
import type { ConfinementInfo } from '../../confinement/types.js';
import { UI_METHODS } from '../../bridge/ui-methods.js';
import type { UiStatus } from '../backend.js';
import { describeTools, type ToolCapability } from '../capabilities.js';
import { remoteReport, withUploads, type RemoteNode } from '../remote/remote-node.js';
import { READ_ONLY_TOOL, defineTool, isPlainObject, type ToolContext, type ToolOutcome } from './types.js';
import { docPage } from './doc-page.js';

export const SERVER_NAME = 'effectcraft-cli';

export function confinementInfo(ctx: Pick<ToolContext, 'confinement'>): ConfinementInfo {
  return ctx.confinement?.info ?? { confined: false, readRoots: [], writeRoots: [] };
}

/** What the agent is told: this process's roots, or in bridge mode both layers (see docs/bridge.md). */
async function confinementReport(
  ctx: Pick<ToolContext, 'confinement' | 'backend'>,
): Promise<ConfinementInfo> {
  const local = confinementInfo(ctx);
  return ctx.backend.describeConfinement ? ctx.backend.describeConfinement(local) : local;
}

export const docInspect = defineTool({
  name: 'doc_inspect',
  title: 'Inspect Document',
  description:
    'Project overview and the active composition with its layers (or comp: another one, under "composition"), plus the confinement in force (read/write roots; in bridge mode also each layer, this server and the app). Footage whose file is not there is marked missing: true. Over 32 KB, the layers come in pages: layersPage says which, and offset: next_offset gives the next; a footage list over 16 KB likewise, footagePage and footage_offset. Same JSON as the effectcraft://document resource, which is never cut.',
  hints: READ_ONLY_TOOL,
  input: z.strictObject({
    comp: z
      .string()
      .min(1)
      .optional()
      .describe('A composition id or name to detail instead of the active one (the active one stays)'),
    offset: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe("The first layer to list (a cut result's layersPage.next_offset); default 0"),
    footage_offset: z
      .number()
      .int()
      .min(0)
      .optional()
      .describe("The first footage item to list (a cut result's footagePage.next_offset); default 0"),
  }),
  async run(args, ctx) {
    const whole = await inspectDocument(ctx, args.comp);
    if (whole.kind !== 'json') return whole;
    return {
      kind: 'json',
      value: docPage(whole.value as Record<string, unknown>, args.offset ?? 0, args.footage_offset ?? 0),
    };
  },
});

/**
 * The whole document as doc_inspect reports it, never cut into pages: the effectcraft://document resource
 * is read in one piece (a resource read takes no offset, so a page there would hide the other layers).
 */
export async function inspectDocument(
  ctx: Pick<ToolContext, 'confinement' | 'backend'>,
  comp?: string,
): Promise<ToolOutcome> {
  const r = await ctx.backend.execute('project.inspect', comp === undefined ? {} : { comp });
  if (!r.ok) return { kind: 'error', error: r.error };
  const doc = isPlainObject(r.result) ? r.result : { project: r.result };
  return { kind: 'json', value: { ...doc, confinement: await confinementReport(ctx) } };
}

/** Built per server: it lists the tool table it belongs to and the package version. */
export function capabilitiesTool(toolNames: () => string[], version: string, remote?: RemoteNode) {
  return defineTool({
    name: 'capabilities',
    title: 'Server Capabilities',
    description:
      'What this server can do on this host, probed (ffmpeg on PATH, native modules, bundled font): per tool, whether it is available, why not and the remedy, its time limit, and what it works without.',
    hints: READ_ONLY_TOOL,
    input: z.strictObject({}),
    async run(_args, ctx) {
      const facts = await ctx.capabilities.facts();
      const studio = await ctx.backend.uiStatus?.().catch(() => null);
      const confinement = await confinementReport(ctx);
      const tools = withStudio(describeTools(toolNames(), facts), studio ?? null);
      return {
        kind: 'json',
        value: {
          server: SERVER_NAME,
          version,
          backend: ctx.backend.kind,
          confinement,
          tools: withRemote(withConfinement(tools, confinement.confined, ctx.confinement), remote),
          ...(studio && { studio }),
          // Over HTTP: the put_sample convention and this node's limits (docs/remote.md).
          ...(remote && { remote: remoteReport(remote) }),
        },
      };
    },
  });
}

/** Tools refused whatever their arguments while confined (scripts, UI driving): said up front, with why. */
function withConfinement(
  tools: ToolCapability[],
  confined: boolean,
  local: ToolContext['confinement'],
): ToolCapability[] {
  return tools.map((t) => {
    // This server's own check (its restart hint), else the app's confinement in bridge mode.
    const refused = local?.checkTool(t.name) ?? checkToolName(t.name, confined);
    return refused
      ? { ...t, available: false, reason: refused.message, remediation: refused.remediation }
      : t;
  });
}

const withRemote = (tools: ToolCapability[], remote: RemoteNode | undefined) =>
  remote ? withUploads(tools, remote) : tools;

/** Bridge mode: the UI tools work when the app has a studio page to drive; otherwise they say why and what to do. */
function withStudio(tools: ToolCapability[], studio: UiStatus | null): ToolCapability[] {
  if (!studio) return tools;
  const uiTools = new Set(Object.values(UI_METHODS).map((m) => m.tool));
  return tools.map((t) => {
    if (!uiTools.has(t.name) || studio.driving) return t;
    const remediation =
      studio.remediation ?? 'Open the studio URL in a browser, or start the app with --studio-headless.';
    const browser =
      studio.browser && !studio.browser.found
        ? ` ${studio.browser.reason} ${studio.browser.remediation}`
        : '';
    return {
      ...t,
      available: false,
      reason: `No studio page is open for ${t.name} to drive.`,
      remediation: remediation + browser,
    };
  });
}
