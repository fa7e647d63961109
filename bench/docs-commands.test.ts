// The bench command lines docs/performance.md shows in its code blocks are ones the bench accepts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from './args.ts';

const page = readFileSync(new URL('../docs/performance.md', import.meta.url), 'utf8');
const blocks = [...page.matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
const commands = blocks
  .flatMap((b) => b.split('\n'))
  .map((l) => l.replace(/#.*$/, '').trim())
  .filter((l) => l.startsWith('npm run bench') && !l.includes('...'));

describe('the bench commands docs/performance.md shows', () => {
  it('finds them', () => expect(commands.length).toBeGreaterThanOrEqual(6));
  it.each(commands)('%s parses', (line) => {
    const args = line
      .replace(/^npm run bench( --)?/, '')
      .trim()
      .split(/\s+/)
      .filter(Boolean);
    expect(() => parseBenchArgs(args)).not.toThrow();
  });
});
