import { describe, expect, it } from 'vitest';
import { failuresOf } from './report-failures.ts';

const counts = { numPassedTests: 1, numFailedTests: 1, numPendingTests: 0, numTodoTests: 0 };

describe('failuresOf (the failed tests named at the end of a run)', () => {
  it('names each failed test with its file and the first line of its error, and skips passed ones', () => {
    const report = {
      ...counts,
      testResults: [
        {
          name: '/repo/test/e2e/install.test.ts',
          status: 'failed',
          assertionResults: [
            { fullName: 'install goes Ready', status: 'passed', failureMessages: [] },
            {
              fullName: 'install replays events',
              status: 'failed',
              failureMessages: ['AssertionError: 3 writes\n  at x'],
            },
          ],
        },
      ],
    };
    expect(failuresOf(report, '/repo')).toEqual([
      'FAILED test/e2e/install.test.ts > install replays events: AssertionError: 3 writes',
    ]);
  });

  it('names a file that failed outside its tests (a hook, an import) by its message', () => {
    const report = {
      ...counts,
      testResults: [
        { name: '/repo/test/a.test.ts', status: 'failed', message: 'Hook timed out\nmore', assertionResults: [] },
      ],
    };
    expect(failuresOf(report, '/repo')).toEqual(['FAILED test/a.test.ts: Hook timed out']);
  });
});
