import { defineSubcommand } from '../flag-spec.js';

export const workerSpec = defineSubcommand({
  name: 'worker',
  summary:
    'render chunks of distributed renders (render PROJECT --redis URL, mcp --redis URL) taken from Redis',
  usage: ['worker --redis URL [--concurrency N]'],
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
    // Test knobs: report another version (to see a refusal), and see a killed worker's chunk handed on sooner.
    'as-version': { type: 'string', value: 'V', hidden: true, help: 'the version this worker reports' },
    'lock-ms': { type: 'string', value: 'MS', hidden: true, help: 'BullMQ lockDuration' },
    'stalled-ms': { type: 'string', value: 'MS', hidden: true, help: 'BullMQ stalledInterval' },
  },
  notes: `Logs go to stderr. Ctrl-C or SIGTERM stops the worker once its current job is given up.
Exit codes: 0 stopped by a signal, 1 Redis could not be reached at start, 2 usage error.`,
});
