// The takeover the tests of takeover.test.ts look at: upstream's recorded fleet loaded into fresh clusters, what it
// was before we ran (Manifests, uids, shapes), then the functions started on it, and their writes until it settled.
import { UPSTREAM_WATCHER } from '../../functions/aggregate-status/upstream-watcher.ts';
import { kymaInState, startWorld, type World } from '../e2e/world.ts';
import { keyOf } from './load.ts';
import {
  loadUpstreamFleet,
  manifestsIn,
  startUpstreamClusters,
  stopUpstreamClusters,
  uidsOf,
  type UpstreamFleet,
  type Write,
} from './fleet.ts';
import { settled, shapeOf } from './observe.ts';

export let clusters: Awaited<ReturnType<typeof startUpstreamClusters>> | undefined;
export let fleet: UpstreamFleet;
export let world: World;
export const before = {
  manifests: {} as Record<string, string>,
  kcpUids: {} as Record<string, string>,
  runtimeUids: new Map<string, Record<string, string>>(),
  shapes: {} as Record<string, unknown>,
};
export let takeover: Write[] = [];

export const isWatcher = (key: string) =>
  UPSTREAM_WATCHER.some(
    (w) =>
      key ===
      keyOf({ kind: w.kind, metadata: { name: w.name, ...('namespace' in w ? { namespace: w.namespace } : {}) } }),
  );

/** upstream's fleet loaded into fresh clusters, what it was noted, then the functions started on it and settled. */
export async function takeOver(): Promise<void> {
  clusters = await startUpstreamClusters('takeover');
  const started = clusters;
  world = await startWorld(
    { LIFECYCLE_DRIFT_PERIOD_MINUTES: '1' },
    {
      kcp: started.kcp.cluster.kubeconfig,
      identity: started.kcp.identity,
      // What upstream left, loaded before anything of ours runs (upstream stopped, the functions not started yet).
      beforeRunner: async (kcp) => {
        fleet = await loadUpstreamFleet(started, kcp);
        before.manifests = Object.fromEntries(
          (await manifestsIn(kcp)).map((m) => [m.metadata.name, m.metadata.uid ?? '']),
        );
        before.kcpUids = await uidsOf(kcp, fleet.kcpObjects);
        for (const [kyma, runtime] of fleet.runtimes)
          before.runtimeUids.set(kyma, await uidsOf(runtime.admin, fleet.runtimeObjects.get(kyma) ?? []));
        before.shapes = await shapeOf(kcp, fleet);
      },
    },
  );
  for (const kyma of fleet.kymas) await kymaInState(world, kyma, 'Ready');
  takeover = await settled(world, fleet);
}

export async function stopTakeover(): Promise<void> {
  await world?.runner.stop();
  await stopUpstreamClusters(clusters ?? {});
}
