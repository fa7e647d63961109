import { parseArgs } from 'node:util';
import { wholeFlag } from './flags.ts';

/** What `npm run bench:rollout-floor` rolls out: on how many runtimes, how many sample modules each (1–8), and
 * whether what every lifecycle manager writes besides (rollout-floor-lifecycle.ts) goes too. */
export interface FloorArgs {
  runtimes: number;
  modules: number;
  lifecycle: boolean;
}

export function parseFloorArgs(argv: string[]): FloorArgs {
  const { values } = parseArgs({
    args: argv,
    options: {
      runtimes: { type: 'string', default: '20' },
      modules: { type: 'string', default: '3' },
      lifecycle: { type: 'boolean', default: false },
    },
  });
  return {
    runtimes: wholeFlag('runtimes', values.runtimes, 1, 200),
    modules: wholeFlag('modules', values.modules, 1, 8),
    lifecycle: values.lifecycle,
  };
}
