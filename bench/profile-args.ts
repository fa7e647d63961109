import { parseArgs } from 'node:util';
import { wholeFlag } from './flags.ts';

/** What `npm run bench:profile` samples: which process, for how long, how often, and where the profile goes. */
export interface ProfileArgs {
  pid: number;
  seconds: number;
  intervalUs: number;
  port: number;
  out: string;
  top: number;
}

/** The options of `npm run bench:profile`; a pid, count or port out of range is refused with what was given. */
export function parseProfileArgs(argv: string[], now = new Date()): ProfileArgs {
  const { values } = parseArgs({
    args: argv,
    options: {
      pid: { type: 'string' },
      seconds: { type: 'string', default: '60' },
      'interval-us': { type: 'string', default: '1000' },
      port: { type: 'string', default: '9229' },
      out: { type: 'string' },
      top: { type: 'string', default: '25' },
    },
  });
  const pid = wholeFlag('pid', values.pid, 1, 2 ** 22);
  const stamp = now.toISOString().replace(/[:.]/g, '-');
  return {
    pid,
    seconds: wholeFlag('seconds', values.seconds, 1, 3600),
    intervalUs: wholeFlag('interval-us', values['interval-us'], 50, 1_000_000),
    port: wholeFlag('port', values.port, 1, 65535),
    out: values.out ?? `profile-${pid}-${stamp}.cpuprofile`,
    top: wholeFlag('top', values.top, 1, 1000),
  };
}
