/** `npm run docs:cli`: writes docs/cli.md from the subcommand definitions (src/cli/specs/). */
import { writeFileSync } from 'node:fs';
import { cliMarkdown } from './specs/index.js';

const path = new URL('../../docs/cli.md', import.meta.url);
writeFileSync(path, cliMarkdown());
process.stdout.write(`wrote ${path.pathname}\n`);
