// Reliability matrix, fault "several instances of a function": Knative scales a Service to several pods and each event
// reaches one of them. Two resolve-template instances — each with its own host, watch caches and memory of the runtime
// Kyma, as two pods have — get real HTTP CloudEvents on the shared KCP and a runtime. Instance B has read the runtime
// Kyma; a user adds a module there; the runtime watch's event reaches instance A. B's next event must not resolve the
// Kyma from what it remembers of the runtime Kyma from before the edit (ADR 43): that would drop the user's module.
import type { CloudEvent } from 'cloudevents';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadKubeConfig } from '../../local/controlplane/index.ts';
import { apiServerEvent } from '../../shared/kube/apiserver-events.ts';
import type { Kyma } from '../../shared/core/kyma.ts';
import { API_VERSION, KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { composeDeps } from '../../shared/host/compose.ts';
import { readConfig } from '../../shared/host/config.ts';
import type { FunctionDeps } from '../../shared/host/deps.ts';
import { eventAbout, LANE, LANE_USER, RESYNC_DUE, RESYNC_PENDING, RESYNC_REASON } from '../../shared/host/events.ts';
import { startFunctionHost, type FunctionHost } from '../../shared/host/host.ts';
import { createLogger } from '../../shared/host/logger.ts';
import { resolveTemplate } from '../../functions/resolve-template/index.ts';
import { publishSampleModule, setReleaseChannels } from '../../tools/module/publish.ts';
import { applyKyma, connectRuntime, eventually, getKyma, REMOTE_KYMA, type World } from '../e2e/world.ts';
import { installRuntimeKymaCrd, postEvent, worldWithoutRunner } from './function-host-helpers.ts';

const KYMA = 'kyma-two-instances';
const RUNTIME = 1;
const FIRST = 'tango';
const ADDED = 'uniform';

let world: World;
const instances: { host: FunctionHost; deps: FunctionDeps }[] = [];

beforeAll(async () => {
  world = await worldWithoutRunner();
  for (const name of [FIRST, ADDED]) {
    await publishSampleModule(world.registry, world.kcp, { name, version: '1.0.0', namespace: KCP_NAMESPACE });
    await setReleaseChannels(world.kcp, KCP_NAMESPACE, name, [{ channel: 'regular', version: '1.0.0' }]);
  }
  // The runtime serves Kymas (aggregate-status syncs the CRD; it does not run here).
  await installRuntimeKymaCrd(RUNTIME);
  const config = readConfig({
    LIFECYCLE_OCI_REGISTRY: `http://${inject('controlPlane').registryHost}`,
    LOG_LEVEL: 'silent',
  });
  for (const label of ['a', 'b']) {
    const deps = await composeDeps(loadKubeConfig(inject('controlPlane').kcp), config, async () => undefined);
    instances.push({
      deps,
      host: await startFunctionHost(resolveTemplate(deps), createLogger(`resolve-template-${label}`, 'silent')),
    });
  }
});

afterAll(async () => {
  for (const { host, deps } of instances) {
    await host.close();
    deps.kcp.stopCaches();
  }
  if (!world) return;
  // No purge runs here: the runtime Kyma goes first (its owner still live), then the Kyma without its finalizer.
  await world.runtimes[RUNTIME]?.delete(REMOTE_KYMA).catch(() => undefined);
  const ref = { apiVersion: API_VERSION, kind: 'Kyma', namespace: KCP_NAMESPACE, name: KYMA };
  await world.kcp.mergePatch(ref, { metadata: { finalizers: null } }).catch(() => undefined);
  await world.kcp.delete(ref).catch(() => undefined);
});

/** Posts `event` to an instance as the broker does (binary mode) and answers the HTTP status. */
const deliver = (instance: number, event: CloudEvent<unknown>) => postEvent(instances[instance]?.host.url ?? '', event);

/** The API server's update event about the Kyma as it is now. */
async function kymaUpdated(): Promise<CloudEvent<unknown>> {
  const kyma = await getKyma(world, KYMA);
  if (!kyma) throw new Error(`Kyma ${KYMA} is gone`);
  return apiServerEvent('update', 'https://kcp', kyma as never);
}

const resolvedModules = async () => (await getKyma(world, KYMA))?.status?.modules?.map((m) => m.name).sort() ?? [];
const runtimeKyma = () => world.runtimes[RUNTIME]?.get<Kyma>(REMOTE_KYMA);

describe('fault: two instances of resolve-template, each event to one of them', () => {
  it('an instance that remembers the runtime Kyma from before a user edit re-reads it instead of dropping the module', async () => {
    await connectRuntime(world, KYMA, RUNTIME);
    await world.runtimes[RUNTIME]?.delete(REMOTE_KYMA).catch(() => undefined);
    await applyKyma(world, KYMA, { channel: 'regular', modules: [{ name: FIRST }] });

    // A creates the runtime Kyma from the KCP spec and resolves; B then reads the runtime Kyma once and remembers it.
    expect(await deliver(0, await kymaUpdated())).toBe(200);
    await eventually('A resolved the first module', async () => (await resolvedModules()).join() === FIRST);
    const key = { kind: 'Kyma', apiVersion: API_VERSION, namespace: KCP_NAMESPACE, name: KYMA };
    const pending = () => eventAbout(RESYNC_DUE, 'resync', key, undefined, { [RESYNC_REASON]: RESYNC_PENDING });
    expect(await deliver(1, pending())).toBe(200);

    // The user adds a module on the runtime; the runtime watch's event reaches A, which reads the runtime Kyma again.
    await world.runtimes[RUNTIME]?.mergePatch(REMOTE_KYMA, { spec: { modules: [{ name: FIRST }, { name: ADDED }] } });
    expect(await deliver(0, eventAbout(RESYNC_DUE, 'runtime-watch', key, undefined, { [LANE]: LANE_USER }))).toBe(200);
    await eventually(
      'A resolved the added module',
      async () => (await resolvedModules()).join() === [FIRST, ADDED].join(),
    );
    const edited = await runtimeKyma();
    expect((await getKyma(world, KYMA))?.status?.specSource).toMatchObject({
      from: 'runtime',
      generation: edited?.metadata.generation,
    });

    // B gets the API server's event about A's status write: the Kyma records its own inputs as resolved, so B answers
    // at once (ADR 66). Then a resync's `pending` event: B's memory of the runtime Kyma is older than what the status
    // records, so it reads the runtime Kyma again and keeps the user's module.
    const before = (await getKyma(world, KYMA))?.metadata.resourceVersion;
    expect(await deliver(1, await kymaUpdated())).toBe(204);
    expect(await deliver(1, pending())).toBe(200);
    expect(await resolvedModules()).toEqual([FIRST, ADDED]);
    expect((await getKyma(world, KYMA))?.metadata.resourceVersion, 'B found nothing to write').toBe(before);
  });
});
