// Prints the closing lines of a test run from vitest's JSON reports (summed): each failed test, then
// "tests: N passed, N failed, N skipped".
import { readFile } from 'node:fs/promises';
import { failuresOf, type Report } from './report-failures.ts';

const files = process.argv.length > 2 ? process.argv.slice(2) : ['test-artifacts/vitest.json'];
const total = { passed: 0, failed: 0, skipped: 0 };
for (const file of files) {
  try {
    const report = JSON.parse(await readFile(file, 'utf8')) as Report;
    for (const line of failuresOf(report, process.cwd())) console.log(line);
    total.passed += report.numPassedTests;
    total.failed += report.numFailedTests;
    total.skipped += report.numPendingTests + report.numTodoTests;
  } catch {
    total.failed += 1;
    console.error(`no test report at ${file}: that test run did not finish`);
  }
}
console.log(`tests: ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
