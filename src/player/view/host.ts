/**
 * The view's side of MCP Apps: an ext-apps `App` talking to the host over postMessage. The host sends
 * preview_player's result (the composition and range); frames come from the app-only player_frame tool,
 * which the host proxies to our server. Nothing here touches the network: the page runs under the host's
 * default CSP (connect-src 'none'), and frames arrive as base64 PNGs shown through data: URLs.
 */
import {
  App,
  PostMessageTransport,
  applyDocumentTheme,
  applyHostStyleVariables,
} from '@modelcontextprotocol/ext-apps';
import type { McpUiHostContext } from '@modelcontextprotocol/ext-apps';
import {
  PLAYER_FRAME_TOOL,
  PlayerFrameInfo,
  PlayerInfo,
  type PlayerFrameInfo as FrameFacts,
} from '../../mcp/player/protocol.js';

export interface ShownFrame {
  frame: number;
  /** A data: URL of the PNG. */
  src: string;
  facts: FrameFacts;
}

export interface PlayerHost {
  /** Fetches one frame of the player's composition through the host. */
  frame(info: PlayerInfo, frame: number): Promise<ShownFrame>;
}

type Content = { type: string; text?: string; data?: string; mimeType?: string };

/** The message of a failed tool result ({code, message, remediation} as structured content or text). */
function failure(result: { structuredContent?: unknown; content?: Content[] }): Error {
  const body = result.structuredContent as { message?: unknown; remediation?: unknown } | undefined;
  if (typeof body?.message === 'string') {
    const remedy = typeof body.remediation === 'string' ? ` ${body.remediation}` : '';
    return new Error(body.message + remedy);
  }
  return new Error(result.content?.find((c) => c.type === 'text')?.text ?? 'The frame could not be fetched.');
}

function applyContext(context: McpUiHostContext | undefined): void {
  if (context?.theme) applyDocumentTheme(context.theme);
  if (context?.styles?.variables) applyHostStyleVariables(context.styles.variables);
}

/**
 * Connects to the host. `onInfo` gets the player's composition and range each time the host sends
 * preview_player's result (a bad or failed result goes to `onError`).
 */
export async function connectHost(
  onInfo: (info: PlayerInfo) => void,
  onError: (message: string) => void,
): Promise<PlayerHost> {
  const app = new App({ name: 'EffectCraft Preview Player', version: '1.0.0' }, {});
  // Handlers first: the host may send the result right after the handshake.
  app.ontoolresult = (result) => {
    if (result.isError) return onError(failure(result as { content?: Content[] }).message);
    const parsed = PlayerInfo.safeParse(result.structuredContent);
    if (parsed.success) onInfo(parsed.data);
    else onError('The preview_player result has no composition to play.');
  };
  app.ontoolcancelled = () => onError('The preview_player call was cancelled; ask for the player again.');
  app.onhostcontextchanged = (context) => applyContext(context);
  await app.connect(new PostMessageTransport(window.parent, window.parent));
  applyContext(app.getHostContext());
  return {
    async frame(info, frame) {
      const result = await app.callServerTool({
        name: PLAYER_FRAME_TOOL,
        arguments: { comp: info.comp.id, frame, max_side: info.maxSide },
      });
      if (result.isError) throw failure(result as { content?: Content[] });
      const image = (result.content as Content[]).find((c) => c.type === 'image' && c.data);
      const facts = PlayerFrameInfo.safeParse(result.structuredContent);
      if (!image || !facts.success) throw new Error('The frame reply has no image.');
      return {
        frame: facts.data.frame,
        src: `data:${image.mimeType ?? 'image/png'};base64,${image.data}`,
        facts: facts.data,
      };
    },
  };
}
