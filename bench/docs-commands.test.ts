// The bench command lines docs/performance.md shows in its code blocks are ones the bench accepts.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from './args.ts';
import { parseStartUpArgs } from './start-up-args.ts';

const page = readFileSync(new URL('../docs/performance.md', import.meta.url), 'utf8');
const blocks = [...page.matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
const lines = blocks.flatMap((b) => b.split('\n')).map((l) => l.replace(/#.*$/, '').trim());
const commands = lines.filter((l) => /^npm run bench(\s|$)/.test(l) && !l.includes('...'));
const startUps = lines.filter((l) => l.startsWith('npm run bench:start-up'));
const argsOf = (line: string) =>
  line
    .replace(/^npm run bench(:start-up)?( --)?/, '')
    .trim()
    .split(/\s+/)
    .filter(Boolean);

describe('the bench commands docs/performance.md shows', () => {
  it('finds them', () => expect(commands.length).toBeGreaterThanOrEqual(6));
  it.each(commands)('%s parses', (line) => expect(() => parseBenchArgs(argsOf(line))).not.toThrow());
  it('finds the start-up bench', () => expect(startUps.length).toBeGreaterThanOrEqual(1));
  it.each(startUps)('%s parses', (line) => expect(() => parseStartUpArgs(argsOf(line))).not.toThrow());
  it('refuses a start-up count that is not a whole number', () =>
    expect(() => parseStartUpArgs(['--starts', '0'])).toThrow(/--starts must be a whole number ≥ 1, not 0/));
});
