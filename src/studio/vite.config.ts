/**
 * Builds the studio page (src/studio/ui) into dist/studio/page (tsc puts the server beside it in dist/studio/server): index.html plus hashed assets, the Inter font
 * included, nothing loaded from elsewhere. JSX goes through Vite's own oxc transform with Preact's runtime, so
 * no Babel preset is needed.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  root: here('./ui'),
  // Relative asset URLs: the app decides under which path it serves the page.
  base: './',
  oxc: { jsx: { runtime: 'automatic', importSource: 'preact' } },
  build: {
    outDir: here('../../dist/studio/page'),
    emptyOutDir: true,
    target: 'es2022',
    // The CSP allows 'self' scripts only: no inline module-preload helper.
    modulePreload: { polyfill: false },
    // Fonts stay files (font-src allows 'self'); small icons may still be inlined as data: URLs.
    assetsInlineLimit: (file) => (/\.woff2?$/.test(file) ? false : undefined),
    chunkSizeWarningLimit: 800,
  },
  logLevel: 'warn',
});
