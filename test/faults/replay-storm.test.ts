// 10,000 events replayed at random into the broker against a converged fleet (issue 8): duplicates (same id), copies
// with new ids, in random order, stale object versions among them. The end state must be identical (every
// resourceVersion on the KCP and the runtime unchanged) and the lifecycle manager must not write once — counted
// by the API servers themselves: the KCP's audit log sees every function as its production ServiceAccount, the
// runtime's audit log sees the runtime identity of the kubeconfig Secrets. Three Kymas share the runtime (ADR 13).
import type { CloudEvent } from 'cloudevents';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Cluster } from '../../local/controlplane/index.ts';
import { RUNTIME_NAMESPACE_ANNOTATION } from '../../shared/core/runtime-scope.ts';
import { API_VERSION, KCP_NAMESPACE, LABEL } from '../../shared/core/vocabulary.ts';
import { KubeClient } from '../../shared/kube/client.ts';
import { loadKubeConfig } from '../../local/controlplane/index.ts';
import { publishSampleModule, setReleaseChannels } from '../../tools/module/publish.ts';
import { readAudit, startAuditedCluster } from '../deploy/audited-kcp.ts';
import { COMPONENTS, usernameOf } from '../deploy/identities.ts';
import { startRbacKcp, type RbacKcp } from '../deploy/rbac-kcp.ts';
import { writeSnapshot } from '../e2e/snapshot.ts';
import { getKyma, kymaInState, startWorld, stopWorld, type World } from '../e2e/world.ts';

const EVENTS = 10_000;
const KYMAS = ['replay-a', 'replay-b', 'replay-c'];
const MODULES = ['alpha', 'bravo'];
const RUNTIME_USER = 'lifecycle-runtime';
const READS = new Set(['get', 'list', 'watch']);
let kcp: RbacKcp;
let runtime: { cluster: Cluster; auditLog: string };
let runtimeClient: KubeClient;
let world: World;

beforeAll(async () => {
  kcp = await startRbacKcp('kcp-replay');
  runtime = await startAuditedCluster('runtime-replay', { users: [RUNTIME_USER] }, { workloads: true });
  const runtimeKubeconfig = await runtime.cluster.kubeconfigFor(RUNTIME_USER, ['system:masters']);
  runtimeClient = await KubeClient.from(loadKubeConfig(runtimeKubeconfig));
  world = await startWorld(
    { LIFECYCLE_DRIFT_PERIOD_MINUTES: '1', LIFECYCLE_LOCAL_BROKER_COALESCE: 'false' },
    { kcp: kcp.cluster.kubeconfig, identity: kcp.identity },
  );
  for (const name of MODULES) {
    await publishSampleModule(world.registry, world.kcp, { name, version: '1.0.0', namespace: KCP_NAMESPACE });
    await setReleaseChannels(world.kcp, KCP_NAMESPACE, name, [{ channel: 'regular', version: '1.0.0' }]);
  }
  for (const name of KYMAS) {
    await world.kcp.apply(
      {
        apiVersion: 'v1',
        kind: 'Secret',
        metadata: {
          name,
          namespace: KCP_NAMESPACE,
          labels: { [LABEL.kymaName]: name },
          annotations: { [RUNTIME_NAMESPACE_ANNOTATION]: name },
        },
        data: { config: Buffer.from(runtimeKubeconfig).toString('base64') },
      },
      'e2e-user',
    );
    await world.kcp.apply(
      {
        apiVersion: API_VERSION,
        kind: 'Kyma',
        metadata: { name, namespace: KCP_NAMESPACE },
        spec: { channel: 'regular', modules: MODULES.map((m) => ({ name: m })) },
      },
      'e2e-user',
    );
  }
  for (const name of KYMAS)
    await kymaInState(
      world,
      name,
      'Ready',
      (k) => (k.status?.modules ?? []).filter((m) => m.state === 'Ready').length === MODULES.length,
    );
}, 600_000);

afterAll(async () => {
  await stopWorld(world);
  await runtime?.cluster.stop();
  await kcp?.cluster.stop();
});

/** Waits until the fleet has stopped writing (broker idle, no resourceVersion moving for a while). */
async function settled(): Promise<Record<string, string>> {
  let last = await writeSnapshot(world.kcp, [runtimeClient]);
  for (let round = 0; round < 30; round++) {
    await world.runner.broker.idle();
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const now = await writeSnapshot(world.kcp, [runtimeClient]);
    if (JSON.stringify(now) === JSON.stringify(last)) return now;
    last = now;
  }
  throw new Error('the fleet did not settle');
}

/** Writes by the lifecycle manager so far: the functions' ServiceAccounts on the KCP, the runtime identity there. */
async function ourWrites(): Promise<string[]> {
  const users = new Set([...COMPONENTS.map(usernameOf), RUNTIME_USER]);
  const kcpWrites = (await readAudit(kcp.auditLog)).filter((r) => users.has(r.user) && !READS.has(r.verb));
  const runtimeWrites = (await readAudit(runtime.auditLog)).filter(
    (r) => r.user === RUNTIME_USER && !READS.has(r.verb),
  );
  return [
    ...kcpWrites.map((w) => `KCP ${w.user} ${w.verb} ${w.resource} ${w.namespace}/${w.name}`),
    ...runtimeWrites.map((w) => `runtime ${w.verb} ${w.resource} ${w.namespace}/${w.name}`),
  ];
}

/** A deterministic pseudo-random sequence (the run can be repeated exactly). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

function storm(recorded: CloudEvent<unknown>[], count: number): CloudEvent<unknown>[] {
  const next = random(20261122);
  return Array.from({ length: count }, (_, i) => {
    const event = recorded[Math.floor(next() * recorded.length)] as CloudEvent<unknown>;
    return next() < 0.5 ? event : event.cloneWith({ id: `replay-${i}` });
  });
}

describe('replaying 10,000 events against a converged fleet', () => {
  it('ends in the identical state with zero writes by the lifecycle manager', async () => {
    const before = await settled();
    const writesBefore = await ourWrites();
    expect(
      writesBefore.filter((w) => w.startsWith('runtime ')).length,
      'the audit logs see our writes (installing the fleet)',
    ).toBeGreaterThan(10);
    expect(writesBefore.filter((w) => w.startsWith('KCP ')).length).toBeGreaterThan(10);
    const recorded = world.events.filter((e) => e.type.startsWith('dev.knative.apiserver.resource.'));
    const kinds = new Set(recorded.map((e) => (e as { kind?: string }).kind));
    expect(kinds, 'the recording holds every kind the sources deliver').toEqual(
      new Set(['Kyma', 'Manifest', 'ModuleTemplate', 'ModuleReleaseMeta']),
    );
    const delivered = world.runner.broker.stats().delivered;
    for (const event of storm(recorded, EVENTS)) await world.runner.broker.publish(event);
    const after = await settled();
    expect(
      world.runner.broker.stats().delivered - delivered,
      'every replayed event reached its functions',
    ).toBeGreaterThanOrEqual(EVENTS);
    expect(after).toEqual(before);
    expect((await ourWrites()).slice(writesBefore.length)).toEqual([]);
    for (const name of KYMAS) expect((await getKyma(world, name))?.status?.state).toBe('Ready');
  }, 900_000);
});
