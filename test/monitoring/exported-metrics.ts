// The metric names the project's code registers (`name: 'lifecycle_…'` in components/ and shared/): what rules and
// dashboards may read.
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export async function exportedMetricNames(): Promise<Set<string>> {
  const names = new Set<string>();
  for (const dir of ['components', 'shared']) {
    const files = (await readdir(join(ROOT, dir), { recursive: true })).filter(
      (f) => f.endsWith('.ts') && !f.endsWith('.test.ts'),
    );
    for (const file of files) {
      const text = await readFile(join(ROOT, dir, file), 'utf8');
      for (const m of text.matchAll(/name: '([a-z_]+)'/g)) if (m[1]?.includes('_')) names.add(m[1]);
    }
  }
  return names;
}
