import { defineSubcommand } from '../flag-spec.js';

export const commandsSpec = defineSubcommand({
  name: 'commands',
  summary: 'print the command catalog',
  usage: ['commands [--json] [--filter TEXT] [--schemas]'],
  description: 'Prints the command catalog: every command an agent, script or pipeline can run.',
  positionals: false,
  flags: {
    json: { type: 'boolean', help: "machine-readable output (with --schemas: each command's JSON Schema)" },
    filter: {
      type: 'string',
      value: 'TEXT',
      help: 'only commands whose id, title, category or description contains TEXT',
    },
    schemas: { type: 'boolean', help: 'include the params JSON Schema (implies --json)' },
  },
});
