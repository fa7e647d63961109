import { parseArgs } from 'node:util';

/** What `npm run bench:rollout-floor` rolls out: on how many runtimes, how many sample modules each (1–8). */
export interface FloorArgs {
  runtimes: number;
  modules: number;
}

export function parseFloorArgs(argv: string[]): FloorArgs {
  const { values } = parseArgs({
    args: argv,
    options: { runtimes: { type: 'string', default: '20' }, modules: { type: 'string', default: '3' } },
  });
  const whole = (name: string, text: string, most: number) => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < 1 || n > most)
      throw new Error(`--${name} must be a whole number from 1 to ${most}, not ${text}`);
    return n;
  };
  return { runtimes: whole('runtimes', values.runtimes, 200), modules: whole('modules', values.modules, 8) };
}
