// The failed tests of a vitest JSON report, a line each, so that the end of a long CI log names them.
import { relative } from 'node:path';

export interface Report {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults?: FileResult[];
}

interface FileResult {
  name: string;
  status: string;
  message?: string;
  assertionResults?: { fullName: string; status: string; failureMessages?: string[] }[];
}

const firstLine = (text: string | undefined): string => (text ?? '').trim().split('\n')[0]?.slice(0, 240) ?? '';

/** "FAILED <file> > <test>: <first line of the error>" per failed test; a file that failed outside its tests: its message. */
export function failuresOf(report: Report, root: string): string[] {
  const lines: string[] = [];
  for (const file of report.testResults ?? []) {
    const path = relative(root, file.name);
    const failed = (file.assertionResults ?? []).filter((test) => test.status === 'failed');
    for (const test of failed) lines.push(`FAILED ${path} > ${test.fullName}: ${firstLine(test.failureMessages?.[0])}`);
    if (file.status === 'failed' && failed.length === 0) lines.push(`FAILED ${path}: ${firstLine(file.message)}`);
  }
  return lines;
}
