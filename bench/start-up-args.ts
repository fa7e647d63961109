import { parseArgs } from 'node:util';

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
  const whole = (name: string, text: string, least: number) => {
    const n = Number(text);
    if (!Number.isInteger(n) || n < least) throw new Error(`--${name} must be a whole number ≥ ${least}, not ${text}`);
    return n;
  };
  return {
    starts: whole('starts', values.starts, 1),
    runtimes: whole('runtimes', values.runtimes, 0),
    settleSeconds: whole('settle-seconds', values['settle-seconds'], 0),
  };
}
