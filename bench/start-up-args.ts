import { parseArgs } from 'node:util';
import { wholeFlag } from './flags.ts';

/** What `npm run bench:start-up` measures: how many starts, against how many runtimes, measured how long after each
 * start printed its functions. */
export interface StartUpArgs {
  starts: number;
  runtimes: number;
  settleSeconds: number;
}

/** The options of `npm run bench:start-up`; a count that is not a whole number ≥ 1 (≥ 0 for the seconds) is refused. */
export function parseStartUpArgs(argv: string[]): StartUpArgs {
  const { values } = parseArgs({
    args: argv,
    options: {
      starts: { type: 'string', default: '9' },
      runtimes: { type: 'string', default: '1' },
      'settle-seconds': { type: 'string', default: '5' },
    },
  });
  return {
    starts: wholeFlag('starts', values.starts, 1),
    runtimes: wholeFlag('runtimes', values.runtimes, 0),
    settleSeconds: wholeFlag('settle-seconds', values['settle-seconds'], 0),
  };
}
