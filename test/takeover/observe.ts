// What the takeover test looks at: when the fleet has stopped writing, the writes tallied, and the shape of the
// objects upstream reads (labels, annotations, finalizers, owners, spec, field managers).
import { setTimeout as sleep } from 'node:timers/promises';
import { API_VERSION, KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { REMOTE_KYMA } from '../../shared/kube/remote-namespace.ts';
import type { World } from '../e2e/world.ts';
import { writesSoFar, type UpstreamFleet, type Write } from './fleet.ts';

/** The writes so far, once the broker is idle and no write came for two rounds of 3 s. */
export async function settled(world: World, fleet: UpstreamFleet): Promise<Write[]> {
  let last = -1;
  let quiet = 0;
  for (let round = 0; round < 60; round++) {
    await world.runner.broker.idle();
    await sleep(3000);
    const writes = await writesSoFar(fleet);
    quiet = writes.length === last ? quiet + 1 : 0;
    if (quiet >= 2) return writes;
    last = writes.length;
  }
  throw new Error('the fleet did not stop writing');
}

/** `count what` lines, by cluster kind, user, verb, resource and answer. */
export function tallyOf(writes: Write[]): [string, number][] {
  const tally = new Map<string, number>();
  for (const w of writes) {
    const key = `${w.cluster === 'kcp' ? 'KCP' : 'runtime'} ${w.user} ${w.verb} ${w.resource}${w.code >= 400 ? ` (${w.code})` : ''}`;
    tally.set(key, (tally.get(key) ?? 0) + 1);
  }
  return [...tally].sort(([a], [b]) => a.localeCompare(b));
}

interface Shaped {
  metadata: {
    name: string;
    labels?: object;
    annotations?: object;
    finalizers?: string[];
    ownerReferences?: object[];
    managedFields?: { manager: string; subresource?: string }[];
  };
  spec?: unknown;
}

/** What upstream reads of an object: metadata it relies on, the spec, and who manages the object's fields. */
const shape = (o: Shaped | undefined) =>
  o && {
    labels: o.metadata.labels,
    annotations: o.metadata.annotations,
    finalizers: o.metadata.finalizers,
    owners: o.metadata.ownerReferences,
    spec: o.spec,
    managers: [...new Set((o.metadata.managedFields ?? []).filter((f) => !f.subresource).map((f) => f.manager))].sort(),
  };

/** The shape of the KCP Kymas and Manifests and of each runtime Kyma, by object. */
export async function shapeOf(
  kcp: KubeClient,
  fleet: Pick<UpstreamFleet, 'runtimes'>,
): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const kind of ['Kyma', 'Manifest']) {
    for (const o of (await kcp.list<Shaped>(API_VERSION, kind, { namespace: KCP_NAMESPACE })).items)
      out[`KCP ${kind} ${o.metadata.name}`] = shape(o);
  }
  for (const [kyma, runtime] of fleet.runtimes)
    out[`runtime Kyma of ${kyma}`] = shape(await runtime.admin.get<Shaped>(REMOTE_KYMA));
  return out;
}
