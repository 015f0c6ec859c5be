// Prints the plain closing line of the test run ("tests: N passed, N failed, N skipped") from vitest's JSON report.
import { readFileSync } from 'node:fs';

const report = JSON.parse(
  readFileSync(new URL('../test-output/vitest-report.json', import.meta.url), 'utf8'),
);
const skipped = report.numPendingTests + report.numTodoTests;
console.log(`tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${skipped} skipped`);
process.exitCode = report.numFailedTests > 0 || report.numTotalTests === 0 ? 1 : 0;
