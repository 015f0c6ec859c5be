/** `npm run docs:commands`: writes docs/commands.md from the command catalog (every surface's commands). */
import { writeFileSync } from 'node:fs';
import { catalogMarkdown } from '../engine/catalog-markdown.js';
import { createSession } from '../session.js';

const path = new URL('../../docs/commands.md', import.meta.url);
writeFileSync(path, catalogMarkdown(createSession({}).engine.list({ schemas: true })));
process.stdout.write(`wrote ${path.pathname}\n`);
