/** Where the built CLI is: `dist/cli.js`, or EFFECTCRAFT_DIST/cli.js when a developer builds elsewhere. */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
export const distDir = join(repoRoot, process.env.EFFECTCRAFT_DIST ?? 'dist');
export const cliPath = join(distDir, 'cli.js');
