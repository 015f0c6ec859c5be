#!/usr/bin/env node
// Entry point of the `effectcraft-cli` binary; everything that touches argv, env and exit lives in src/cli/.
import { main } from './cli/main.js';

// A closed pipe (`| head`) is a normal end for a CLI, not a crash.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    process.stderr.write(
      `effectcraft-cli: internal error: ${err instanceof Error ? err.message : String(err)}\n`,
    );
    process.exitCode = 70;
  },
);
