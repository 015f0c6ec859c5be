import { defineConfig } from 'vitest/config';

/** One project per tier (test/unit, test/integration, test/e2e), each runnable alone: `vitest run --project unit`. */
const tier = (name: string, extra: { globalSetup?: string[] } = {}) => ({
  extends: true as const,
  test: { name, include: [`test/${name}/**/*.test.ts`], ...extra },
});

export default defineConfig({
  test: {
    testTimeout: 60_000,
    hookTimeout: 60_000,
    // Renders use worker threads and child processes; forks keep native state (Skia, sharp) apart per file.
    pool: 'forks',
    // The JSON report lets .ci/run print one plain 'N passed, N failed' line that any CI reader understands.
    reporters: ['default', ['json', { outputFile: 'test-output/vitest-report.json' }]],
    projects: [
      // Unit and integration tests run the sources, workers included (src/node-io/worker-url.ts): no build.
      tier('unit'),
      tier('integration'),
      // End-to-end tests spawn the built CLI: refuse a build older than the sources.
      tier('e2e', { globalSetup: ['test/e2e/fresh-build.ts'] }),
    ],
  },
});
