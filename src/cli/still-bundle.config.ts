/**
 * Bundles the built `still` subcommand (dist/cli/still-cmd.js and everything it imports, zod and immer included)
 * into one module, dist/cli/still-cmd.bundle.js, which main.ts loads for `effectcraft-cli still`: a cold process
 * then links one file instead of a few hundred (measured: median 0.39 s -> 0.35 s for a frame of the sample).
 * Native packages (Skia, sharp) and the font package stay outside. The bundle sits beside the module it is built
 * from, so the paths its code resolves against import.meta.url (fonts, package.json) are the same.
 */
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = (path: string) => fileURLToPath(new URL(path, import.meta.url));

export default defineConfig({
  build: {
    ssr: here('../../dist/cli/still-cmd.js'),
    outDir: here('../../dist/cli'),
    emptyOutDir: false,
    target: 'node20',
    minify: false,
    rollupOptions: { output: { entryFileNames: 'still-cmd.bundle.js', codeSplitting: false } },
  },
  ssr: {
    noExternal: true,
    external: ['@napi-rs/canvas', 'sharp', '@fontsource/inter'],
  },
  logLevel: 'warn',
});
