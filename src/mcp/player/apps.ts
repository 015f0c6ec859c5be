/**
 * The MCP Apps extension (io.modelcontextprotocol/ui, SEP-1865) on our side of the wire: what we advertise,
 * whether the client said it can show apps, and the `_meta` a tool carries in tools/list. The constants come
 * from @modelcontextprotocol/ext-apps, so they follow the spec the hosts implement.
 */
import {
  EXTENSION_ID,
  RESOURCE_MIME_TYPE,
  RESOURCE_URI_META_KEY,
  getUiCapability,
} from '@modelcontextprotocol/ext-apps/server';
import type { ClientCapabilities, ServerContext } from '@modelcontextprotocol/server';
import type { ToolSpec } from '../tools/types.js';

export { EXTENSION_ID as APPS_EXTENSION, RESOURCE_MIME_TYPE as APP_MIME_TYPE };

/** Where a 2026-07-28 request carries the client's capabilities (its per-request `_meta` envelope). */
const CLIENT_CAPABILITIES_KEY = 'io.modelcontextprotocol/clientCapabilities';

/**
 * Whether the client can show MCP Apps: true or false when it told us (2026-07-28: on every request;
 * 2025-11-25: at initialize), undefined when we cannot know (a stateless 2025 HTTP request after initialize).
 */
export function clientShowsApps(
  ctx: ServerContext,
  initialized: ClientCapabilities | undefined,
): boolean | undefined {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const declared = (envelope?.[CLIENT_CAPABILITIES_KEY] as ClientCapabilities | undefined) ?? initialized;
  if (!declared) return undefined;
  return getUiCapability(declared)?.mimeTypes?.includes(RESOURCE_MIME_TYPE) === true;
}

/** A tool only the view may call (`visibility: ["app"]`): hosts keep it from the model. */
export function isAppOnly(spec: ToolSpec): boolean {
  const visibility = spec.ui?.visibility;
  return visibility !== undefined && !visibility.includes('model');
}

/**
 * Whether tools/list shows `spec`. App-only tools are listed (with their visibility, for the host to filter, as
 * the spec says) unless the client said it cannot show apps: such a client would hand them to its model, so we
 * fall back to core behaviour, as the extension rules ask. They stay callable either way.
 */
export function listedFor(spec: ToolSpec, showsApps: boolean | undefined): boolean {
  return !(isAppOnly(spec) && showsApps === false);
}

/** The tool's `_meta` in tools/list: `ui` per the spec, plus the older flat key that earlier hosts read. */
export function toolUiMeta(spec: ToolSpec): Record<string, unknown> | undefined {
  if (!spec.ui) return undefined;
  return { ui: { ...spec.ui }, [RESOURCE_URI_META_KEY]: spec.ui.resourceUri };
}
