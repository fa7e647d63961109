// The order of test files: vitest's own, except that test/runtime-kymas.test.ts and test/secret-hygiene.test.ts come
// last — they read what every other integration file left behind.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const LAST = /[/\\]test[/\\](secret-hygiene|runtime-kymas)\.test\.ts$/;

export class HygieneLastSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted.filter((f) => !LAST.test(f.moduleId)), ...sorted.filter((f) => LAST.test(f.moduleId))];
  }
}
