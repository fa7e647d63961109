// Which Kyma updates resolve-template works on (ADR 66), over real HTTP CloudEvents on the shared KCP and a runtime:
// a status write that changes none of the Kyma's inputs is answered at once; a resolution made from the KCP spec only
// because the runtime had no Kyma CRD yet records no digest, so the status write after the CRD sync is resolved
// again (and creates the runtime Kyma); a label change is resolved again. Nothing else runs here: each event is sent.
import type { CloudEvent } from 'cloudevents';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { loadKubeConfig } from '../../local/controlplane/index.ts';
import { inputsOf } from '../../functions/resolve-template/inputs.ts';
import { resolveTemplate } from '../../functions/resolve-template/index.ts';
import type { Kyma } from '../../shared/core/kyma.ts';
import { API_VERSION, KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { composeDeps } from '../../shared/host/compose.ts';
import { readConfig } from '../../shared/host/config.ts';
import type { FunctionDeps } from '../../shared/host/deps.ts';
import { startFunctionHost, type FunctionHost } from '../../shared/host/host.ts';
import { createLogger } from '../../shared/host/logger.ts';
import { apiServerEvent } from '../../shared/kube/apiserver-events.ts';
import { publishSampleModule, setReleaseChannels } from '../../tools/module/publish.ts';
import { installRuntimeKymaCrd, postEvent, worldWithoutRunner } from '../faults/function-host-helpers.ts';
import { applyKyma, connectRuntime, eventually, getKyma, REMOTE_KYMA, type World } from './world.ts';

const KYMA = 'kyma-updates';
const MODULE = 'victor';
const RUNTIME = 0;
const KYMA_CRD = {
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  name: 'kymas.operator.kyma-project.io',
};
const kymaRef = { apiVersion: API_VERSION, kind: 'Kyma', namespace: KCP_NAMESPACE, name: KYMA };

let world: World;
let deps: FunctionDeps;
let host: FunctionHost;
let crdWasThere = false;
const runtime = () => {
  const client = world.runtimes[RUNTIME];
  if (!client) throw new Error(`no runtime ${RUNTIME}`);
  return client;
};

beforeAll(async () => {
  world = await worldWithoutRunner();
  await publishSampleModule(world.registry, world.kcp, { name: MODULE, version: '1.0.0', namespace: KCP_NAMESPACE });
  await setReleaseChannels(world.kcp, KCP_NAMESPACE, MODULE, [{ channel: 'regular', version: '1.0.0' }]);
  // The runtime starts without a Kyma CRD (aggregate-status, which would sync it, does not run here).
  crdWasThere = Boolean(await runtime().get(KYMA_CRD));
  await runtime()
    .delete(KYMA_CRD)
    .catch(() => undefined);
  await eventually('no Kyma CRD on the runtime', async () => !(await runtime().get(KYMA_CRD)));
  const config = readConfig({
    LIFECYCLE_OCI_REGISTRY: `http://${inject('controlPlane').registryHost}`,
    LOG_LEVEL: 'silent',
  });
  deps = await composeDeps(loadKubeConfig(inject('controlPlane').kcp), config, async () => undefined);
  host = await startFunctionHost(resolveTemplate(deps), createLogger('resolve-template', 'silent'));
});

afterAll(async () => {
  await host?.close();
  deps?.kcp.stopCaches();
  if (!world) return;
  await runtime()
    .delete(REMOTE_KYMA)
    .catch(() => undefined);
  await world.kcp.mergePatch(kymaRef, { metadata: { finalizers: null } }).catch(() => undefined);
  await world.kcp.delete(kymaRef).catch(() => undefined);
  if (crdWasThere) await installRuntimeKymaCrd(RUNTIME);
  else
    await runtime()
      .delete(KYMA_CRD)
      .catch(() => undefined);
});

/** Posts the API server's `change` event about the Kyma as it is now, as the broker does; answers the HTTP status. */
async function delivered(change: 'add' | 'update'): Promise<number> {
  const kyma = await getKyma(world, KYMA);
  if (!kyma) throw new Error(`Kyma ${KYMA} is gone`);
  return postEvent(host.url, apiServerEvent(change, 'https://kcp', kyma as never) as CloudEvent<unknown>);
}

const resolvedWith = (what: string, check: (k: Kyma) => boolean) =>
  eventually(what, async () => {
    const kyma = await getKyma(world, KYMA);
    return kyma && check(kyma) ? kyma : undefined;
  });

describe('resolve-template and the updates of a Kyma (ADR 66)', () => {
  it('answers a status write at once; resolves again after the Kyma CRD came and after a label change', async () => {
    await connectRuntime(world, KYMA, RUNTIME);
    await applyKyma(world, KYMA, { channel: 'regular', modules: [{ name: MODULE }] });

    expect(await delivered('add')).toBe(200);
    const first = await resolvedWith('resolved from the KCP spec', (k) => Boolean(k.status?.specSource));
    expect(first.status?.specSource, 'no Kyma CRD on the runtime: no digest').toEqual({
      from: 'kcp',
      channel: 'regular',
    });

    // aggregate-status would sync the CRD, then write the status: that write's update is resolved again.
    await installRuntimeKymaCrd(RUNTIME);
    expect(await delivered('update')).toBe(200);
    const second = await resolvedWith(
      'resolved from the runtime Kyma',
      (k) => k.status?.specSource?.from === 'runtime',
    );
    expect(second.status?.specSource?.inputs).toBe(inputsOf(second.metadata));
    expect(await runtime().get(REMOTE_KYMA), 'the runtime Kyma, created from the KCP spec').toBeDefined();

    // A status write of another function: the Kyma's inputs as resolved, answered at once, nothing written.
    const status = { state: 'Processing' as const };
    await world.kcp.apply<Kyma>(
      { apiVersion: API_VERSION, kind: 'Kyma', metadata: { name: KYMA, namespace: KCP_NAMESPACE }, status },
      'e2e-status',
      'status',
    );
    const before = (await getKyma(world, KYMA))?.metadata.resourceVersion;
    expect(await delivered('update')).toBe(204);
    expect((await getKyma(world, KYMA))?.metadata.resourceVersion).toBe(before);

    // A label: an input. Resolved again, the new digest written with the resolution as it was.
    await world.kcp.mergePatch(kymaRef, { metadata: { labels: { 'e2e.kyma-project.io/changed': 'yes' } } });
    expect(await delivered('update')).toBe(200);
    const third = await resolvedWith('the new digest', (k) => k.status?.specSource?.inputs === inputsOf(k.metadata));
    expect(third.status?.specSource?.inputs).not.toBe(second.status?.specSource?.inputs);
    expect(third.status?.modules?.map((m) => m.resolution)).toEqual(second.status?.modules?.map((m) => m.resolution));
    expect(await delivered('update'), 'and that write is settled in turn').toBe(204);
  });
});
