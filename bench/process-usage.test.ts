import { describe, expect, it } from 'vitest';
import { parseStat, parseStatus, usageDelta } from './process-usage.ts';

// Read from /proc on Linux: a kube-apiserver of the repo's control plane, and `sleep` copied to `we(ird) cmd`
// (its utime/stime, 0 and 0 when read, set to 7 and 3 so that the two tell apart).
const APISERVER_STAT =
  '25189 (kube-apiserver) S 25159 25189 25189 0 -1 4194304 52191 0 0 0 142 85 0 0 20 0 9 0 2382280 1585520640 62588 18446744073709551615 4194304 46520305 140724662660848 0 0 0 1002060288 0 2143420159 0 0 0 17 1 0 0 0 0 0 91992064 92872512 441249792 140724662669924 140724662670771 140724662670771 140724662673289 0\n';
const ODD_STAT =
  '25316 (we(ird) cmd) S 25315 25310 24406 0 -1 4194304 135 0 0 0 7 3 0 0 20 0 1 0 2384771 2990080 421 18446744073709551615 93857261531136 93857261549065 140721770029536 0 0 0 0 6 0 1 0 0 17 0 0 0 0 0 0 93857261563152 93857261564416 93857486766080 140721770035892 140721770035909 140721770035909 140721770037226 0\n';
const APISERVER_STATUS = `Name:\tkube-apiserver
Umask:\t0022
State:\tS (sleeping)
Tgid:\t25189
Pid:\t25189
PPid:\t25159
VmPeak:\t 1548360 kB
VmSize:\t 1548360 kB
VmLck:\t       0 kB
VmHWM:\t  250464 kB
VmRSS:\t  238112 kB
RssAnon:\t  178928 kB
RssFile:\t   59184 kB
Threads:\t9
`;

describe('parseStat', () => {
  it('reads utime and stime (fields 14 and 15) in clock ticks', () => {
    expect(parseStat(APISERVER_STAT)).toEqual({ comm: 'kube-apiserver', state: 'S', utimeTicks: 142, stimeTicks: 85 });
  });

  it('counts fields from the last parenthesis when the command holds spaces and parentheses', () => {
    expect(parseStat(ODD_STAT)).toEqual({ comm: 'we(ird) cmd', state: 'S', utimeTicks: 7, stimeTicks: 3 });
  });

  it('refuses text that is no stat line', () => {
    expect(() => parseStat('Name:\tetcd\n')).toThrow(/stat/);
    expect(() => parseStat('1 (x) S 0')).toThrow(/utime/);
  });
});

describe('parseStatus', () => {
  it('reads VmRSS and VmHWM in bytes', () => {
    expect(parseStatus(APISERVER_STATUS)).toEqual({ rssBytes: 238112 * 1024, peakRssBytes: 250464 * 1024 });
  });

  it('gives 0 for a zombie without memory lines', () => {
    expect(parseStatus('Name:\tetcd\nState:\tZ (zombie)\n')).toEqual({ rssBytes: 0, peakRssBytes: 0 });
  });
});

describe('usageDelta', () => {
  it('subtracts CPU seconds and keeps the later memory and the higher peak', () => {
    const before = { cpuSeconds: 2.5, rssBytes: 300, peakRssBytes: 500 };
    expect(usageDelta(before, { cpuSeconds: 4, rssBytes: 200, peakRssBytes: 500 })).toEqual({
      cpuSeconds: 1.5,
      rssBytes: 200,
      peakRssBytes: 500,
    });
    expect(usageDelta(before, { cpuSeconds: 1, rssBytes: 0, peakRssBytes: 0 })).toEqual({
      cpuSeconds: 0,
      rssBytes: 0,
      peakRssBytes: 500,
    });
  });
});
