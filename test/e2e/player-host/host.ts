/**
 * A minimal MCP Apps host page for the preview player's end-to-end test, built on the ext-apps AppBridge (the
 * host side of the protocol): it puts the view in a sandboxed iframe served from another origin, does the
 * ui/initialize handshake, sends the tool's input and result, follows the view's size, and proxies the view's
 * tools/call to `window.hostCallTool`, which the test exposes from Node (the official client speaks to the
 * real server there, so stdio and HTTP servers are driven alike).
 */
import { AppBridge, PostMessageTransport } from '@modelcontextprotocol/ext-apps/app-bridge';
import type { CallToolRequest, CallToolResult } from '@modelcontextprotocol/client';

interface ShowApp {
  /** The view's HTML, served by the test from its "sandbox" origin under the MCP Apps default CSP. */
  viewUrl: string;
  toolArguments: Record<string, unknown>;
  toolResult: CallToolResult;
}

declare global {
  interface Window {
    hostCallTool(params: CallToolRequest['params']): Promise<CallToolResult>;
    showApp(app: ShowApp): Promise<void>;
    /** Set once the view sent ui/notifications/initialized. */
    viewInitialized?: boolean;
  }
}

window.showApp = async ({ viewUrl, toolArguments, toolResult }) => {
  const iframe = document.createElement('iframe');
  iframe.id = 'view';
  // The spec's sandbox permissions for a view's frame.
  iframe.setAttribute('sandbox', 'allow-scripts allow-same-origin');
  iframe.style.cssText = 'width: 560px; height: 200px; border: 1px solid #9ca3af; background: white';
  document.body.append(iframe);

  const bridge = new AppBridge(
    null,
    { name: 'effectcraft-e2e-host', version: '1.0.0' },
    { serverTools: {}, logging: {} },
    {
      hostContext: {
        theme: 'light',
        displayMode: 'inline',
        platform: 'web',
        containerDimensions: { width: 560, maxHeight: 900 },
      },
    },
  );
  bridge.oncalltool = (params) => window.hostCallTool(params);
  bridge.onsizechange = ({ height }) => {
    if (height) iframe.style.height = `${height}px`;
  };
  bridge.oninitialized = () => {
    window.viewInitialized = true;
    void bridge.sendToolInput({ arguments: toolArguments });
    void bridge.sendToolResult(toolResult);
  };
  // Listen before the view loads: it sends ui/initialize as soon as its script runs.
  await bridge.connect(new PostMessageTransport(iframe.contentWindow!, iframe.contentWindow!));
  iframe.src = viewUrl;
};
