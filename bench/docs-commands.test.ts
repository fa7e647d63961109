// The bench command lines docs/performance.md shows in its code blocks are ones the benches accept.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseBenchArgs } from './args.ts';
import { parseFloorArgs } from './rollout-floor-args.ts';
import { parseProfileArgs } from './profile-args.ts';
import { parseStartUpArgs } from './start-up-args.ts';

const page = readFileSync(new URL('../docs/performance.md', import.meta.url), 'utf8');
const blocks = [...page.matchAll(/```bash\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
const lines = blocks.flatMap((b) => b.split('\n')).map((l) => l.replace(/#.*$/, '').trim());
const argsOf = (line: string) =>
  line
    .replace(/^npm run bench(:[a-z-]+)?( --)?/, '')
    .trim()
    .split(/\s+/)
    .filter(Boolean);

/** Each npm script of a bench and what parses its options. */
const benches: [script: string, parse: (argv: string[]) => unknown, least: number][] = [
  ['bench', parseBenchArgs, 6],
  ['bench:start-up', parseStartUpArgs, 1],
  ['bench:rollout-floor', parseFloorArgs, 1],
  ['bench:profile', parseProfileArgs, 2],
];

describe.each(benches)('the npm run %s commands docs/performance.md shows', (script, parse, least) => {
  const commands = lines.filter((l) => l.startsWith(`npm run ${script}`) && /^\s|^$/.test(l.slice(8 + script.length)));
  const shown = commands.filter((l) => !l.includes('...'));
  it(`are there (at least ${least})`, () => expect(shown.length).toBeGreaterThanOrEqual(least));
  it.each(shown)('%s parses', (line) => expect(() => parse(argsOf(line))).not.toThrow());
});

describe('the benches refuse counts out of range', () => {
  it('start-up', () =>
    expect(() => parseStartUpArgs(['--starts', '0'])).toThrow(/--starts must be a whole number ≥ 1, not 0/));
  it('rollout floor', () =>
    expect(() => parseFloorArgs(['--modules', '9'])).toThrow(/--modules must be a whole number from 1 to 8, not 9/));
  it('profile', () => {
    expect(() => parseProfileArgs([])).toThrow(/--pid must be a whole number from 1 to 4194304, not missing/);
    expect(() => parseProfileArgs(['--pid', '7', '--seconds', '0'])).toThrow(/--seconds must be .* not 0/);
    expect(parseProfileArgs(['--pid', '7'], new Date('2026-12-02T06:00:00Z')).out).toBe(
      'profile-7-2026-12-02T06-00-00-000Z.cpuprofile',
    );
  });
});
