import { defineSubcommand } from '../flag-spec.js';

export const workerSpec = defineSubcommand({
  name: 'worker',
  summary:
    'render chunks of distributed renders (render PROJECT --redis URL, mcp --redis URL) taken from Redis',
  usage: ['worker --redis URL [--concurrency N] [--name NAME]'],
  description: `Takes render jobs from the Redis at URL and renders them: chunks of frames of the items that \`effectcraft-cli render PROJECT --redis URL\` (or the renders of \`effectcraft-cli mcp --redis URL\`) sends, and the assembly of each item. Start as many as wanted, on as many machines: each renders one chunk at a time with every core. Every worker must see the project's footage and the outputs at the same paths as the machine that renders (shared storage), and run the same effectcraft-cli version (a job from another version is refused and fails). See docs/distributed.md.`,
  positionals: false,
  flags: {
    redis: {
      type: 'string',
      value: 'URL',
      help: 'the Redis to take jobs from: redis://HOST:PORT (required)',
    },
    concurrency: {
      type: 'string',
      value: 'N',
      help: 'render threads per chunk',
      default: 'the number of cores',
    },
    name: {
      type: 'string',
      value: 'NAME',
      help: "this worker's name in the errors of the chunks it fails (which machine could not read a file)",
      default: 'HOSTNAME:PID',
    },
    // Test knobs: report another version (to see a refusal), and see a killed worker's chunk handed on sooner.
    'as-version': { type: 'string', value: 'V', hidden: true, help: 'the version this worker reports' },
    'lock-ms': { type: 'string', value: 'MS', hidden: true, help: 'BullMQ lockDuration' },
    'stalled-ms': { type: 'string', value: 'MS', hidden: true, help: 'BullMQ stalledInterval' },
    // Test knob: see a chunk that fails once retried (render --attempts).
    'fail-first-chunk': {
      type: 'boolean',
      hidden: true,
      help: 'fail the first chunk taken with a transient error',
    },
  },
  notes: `Logs go to stderr. Ctrl-C or SIGTERM stops the worker once its current job is given up.
Exit codes: 0 stopped by a signal, 1 Redis could not be reached at start, 2 usage error.`,
});
