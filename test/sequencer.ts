// The order of test files: vitest's own, except that test/secret-hygiene.test.ts comes last — it reads what every
// other integration file left behind.
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const LAST = /[/\\]test[/\\]secret-hygiene\.test\.ts$/;

export class HygieneLastSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return [...sorted.filter((f) => !LAST.test(f.moduleId)), ...sorted.filter((f) => LAST.test(f.moduleId))];
  }
}
