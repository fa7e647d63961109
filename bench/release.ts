// The release phase (--release): once the fleet is idle, the first module's regular channel moves to a new version; the
// bench times the fleet's upgrade and what it costs per second on the KCP and the runtimes — how fast a release
// spreads within the release budget (ADR 30) and how much load it puts on the API servers while it does.
import { KCP_NAMESPACE } from '../shared/core/vocabulary.ts';
import { setReleaseChannels } from '../tools/module/publish.ts';
import type { Config } from '../shared/host/config.ts';
import { costBetween, costSnapshot } from './cost.ts';
import { kymaName, RELEASE_VERSION, type Fleet } from './fleet.ts';
import { KCP_CONTROLLERS, ownRequests, ownWrites } from './own-writes.ts';
import type { ReadinessTracker } from './readiness.ts';
import { untilAll } from './wait.ts';

export interface ReleaseOutcome {
  module: string;
  version: string;
  kymas: number;
  /** From the channel change to the last Kyma running the new version, Ready. */
  seconds: number;
  /** Kymas upgraded (new version Ready) in each minute after the change. */
  upgradedPerMinute: number[];
  /** The lifecycle manager's own requests and writes per second while the release spread. */
  kcpRequestsPerSecond: number;
  kcpWritesPerSecond: number;
  runtimeRequestsPerSecond: number;
  budget: Config['releaseBudget'];
}

export async function measureRelease(
  fleet: Fleet,
  kymas: number,
  tracker: ReadinessTracker,
  config: Config,
  timeoutSeconds: number,
  say: (line: string) => void,
): Promise<ReleaseOutcome> {
  const module = fleet.modules[0] ?? '';
  const key = (i: number) => `${kymaName(i)}/${module}@${RELEASE_VERSION}`;
  const upgraded = () => {
    let n = 0;
    for (let i = 0; i < kymas; i++) if (tracker.versionReady.has(key(i))) n++;
    return n;
  };
  say(
    `release: ${module} regular → ${RELEASE_VERSION} (budget ${config.releaseBudget.kymasPerMinute} Kymas/min, ${config.releaseBudget.kymasPerRuntimePerMinute} per runtime API server)`,
  );
  const before = await costSnapshot(fleet);
  const started = performance.now();
  await setReleaseChannels(fleet.kcp, KCP_NAMESPACE, module, [{ channel: 'regular', version: RELEASE_VERSION }]);
  await untilAll(upgraded, kymas, `Kymas at ${module} ${RELEASE_VERSION}`, timeoutSeconds, say);
  const cost = costBetween(before, await costSnapshot(fleet));
  const perMinute: number[] = [];
  for (let i = 0; i < kymas; i++) {
    const minute = Math.floor(((tracker.versionReady.get(key(i)) ?? started) - started) / 60_000);
    perMinute[minute] = (perMinute[minute] ?? 0) + 1;
  }
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    module,
    version: RELEASE_VERSION,
    kymas,
    seconds: round(cost.seconds),
    upgradedPerMinute: Array.from(perMinute, (n) => n ?? 0),
    kcpRequestsPerSecond: round(ownRequests(cost.kcp.byVerbResource, KCP_CONTROLLERS) / cost.seconds),
    kcpWritesPerSecond: round(ownWrites(cost.kcp.byVerbResource, KCP_CONTROLLERS) / cost.seconds),
    runtimeRequestsPerSecond: round(ownRequests(cost.runtimes.byVerbResource) / cost.seconds),
    budget: config.releaseBudget,
  };
}
