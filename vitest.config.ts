import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Renders use worker threads and child processes; forks keep native state (Skia, sharp) apart per file.
    pool: 'forks',
    // The JSON report lets .ci/run print one plain 'N passed, N failed' line that any CI reader understands.
    reporters: ['default', ['json', { outputFile: 'test-output/vitest-report.json' }]],
  },
});
