// Prints the closing line of a test run from vitest's JSON report: "tests: N passed, N failed, N skipped".
import { readFile } from 'node:fs/promises';

const file = process.argv[2] ?? 'test-artifacts/vitest.json';
try {
  const report = JSON.parse(await readFile(file, 'utf8')) as {
    numPassedTests: number; numFailedTests: number; numPendingTests: number; numTodoTests: number;
  };
  console.log(`tests: ${report.numPassedTests} passed, ${report.numFailedTests} failed, ${report.numPendingTests + report.numTodoTests} skipped`);
} catch {
  console.log('tests: 0 passed, 1 failed');
  console.error(`no test report at ${file}: the test run did not finish`);
}
