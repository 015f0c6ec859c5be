#!/usr/bin/env node
// Entry point of the `effectcraft-cli` binary; everything that touches argv, env and exit lives in src/cli/.
import { handleClosedPipes } from './cli/closed-pipes.js';
import { catchEarlySignals } from './cli/early-signals.js';
import { main } from './cli/main.js';

// A closed pipe (`| head`) is a normal end for most commands, never a crash (closed-pipes.ts).
handleClosedPipes();
// A render stopped while it loads still stops as a render does (early-signals.ts).
if (process.argv[2] === 'render') catchEarlySignals();

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
