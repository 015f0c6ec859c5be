/**
 * Builds the preview player's view (src/player/view) into one self-contained file, dist/player/index.html:
 * scripts and styles inline (vite-plugin-singlefile), no font files, nothing loaded from elsewhere, so hosts
 * can show it under the MCP Apps default CSP. The MCP server serves it as ui://effectcraft/player
 * (src/mcp/player/view-resource.ts). JSX goes through Vite's oxc transform with Preact's runtime.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { viteSingleFile } from 'vite-plugin-singlefile';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('./view'),
  base: './',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  plugins: [viteSingleFile()],
  build: {
    outDir: here('../../dist/player'),
    emptyOutDir: true,
    target: 'es2022',
    modulePreload: { polyfill: false },
    chunkSizeWarningLimit: 1200,
  },
  logLevel: 'warn',
});
