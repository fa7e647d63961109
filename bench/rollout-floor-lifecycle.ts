// `npm run bench:rollout-floor -- --lifecycle`: what any Kyma lifecycle manager writes on a runtime besides the
// modules' own manifests, whichever implementation — the lifecycle CRDs, the catalog copies (a ModuleTemplate and a
// ModuleReleaseMeta per module), the runtime Kyma and each module's default CR — in the order a bare client needs
// (each CRD established before its objects). Upstream's manager writes the same, so this floor bounds both.
import { setTimeout as sleep } from 'node:timers/promises';
import { asRuntimeCrd, SYNCED_CRDS } from '../functions/aggregate-status/runtime-sync.ts';
import { lifecycleCrds } from '../local/controlplane/crds.ts';
import { API_VERSION, LABEL, MANAGED_BY_RUNTIME, REMOTE_NAMESPACE } from '../shared/core/vocabulary.ts';
import type { KubeClient } from '../shared/kube/client.ts';
import { crdSettled } from '../shared/kube/shared-objects.ts';
import type { KubeObject } from '../shared/kube/types.ts';
import { sampleComponent, sampleDefaultCr } from '../tools/module/sample.ts';

const VERSION = '1.0.0';

/** The lifecycle CRDs of manifests/crds as a runtime gets them (aggregate-status's own shaping), in its push order. */
export async function runtimeLifecycleCrds(): Promise<KubeObject[]> {
  const shipped = await lifecycleCrds();
  return SYNCED_CRDS.map((name) => {
    const crd = shipped.find((c) => c.metadata?.name === name);
    if (!crd) throw new Error(`CRD ${name} missing in manifests/crds`);
    return asRuntimeCrd(name, crd.spec) as KubeObject;
  });
}

/** PURE. The catalog copies and the runtime Kyma for `modules`, as a runtime holds them once its Kyma is installed. */
export function lifecycleObjects(modules: readonly string[]): KubeObject[] {
  const namespace = REMOTE_NAMESPACE;
  const labels = { [LABEL.managedBy]: MANAGED_BY_RUNTIME };
  const copies = modules.flatMap((name) => [
    {
      apiVersion: API_VERSION,
      kind: 'ModuleTemplate',
      metadata: { name: `${name}-${VERSION}`, namespace, labels },
      spec: { moduleName: name, version: VERSION, data: sampleDefaultCr(name) },
    },
    {
      apiVersion: API_VERSION,
      kind: 'ModuleReleaseMeta',
      metadata: { name, namespace, labels },
      spec: {
        moduleName: name,
        ocmComponentName: sampleComponent(name),
        channels: [{ channel: 'regular', version: VERSION }],
      },
    },
  ]);
  const kyma = {
    apiVersion: API_VERSION,
    kind: 'Kyma',
    metadata: { name: 'default', namespace, labels },
    spec: { channel: 'regular', modules: modules.map((name) => ({ name })) },
  };
  return [...copies, kyma];
}

/** PURE. Each module's default CR, in the runtime's kyma-system namespace. */
export const defaultCrs = (modules: readonly string[]): KubeObject[] =>
  modules.map((name) => {
    const cr = sampleDefaultCr(name) as KubeObject;
    return { ...cr, metadata: { name: `${name}-default`, namespace: REMOTE_NAMESPACE } };
  });

/** Applies `crd` and waits until the API server has established it (what a client must before creating its objects). */
export async function establish(client: KubeClient, crd: KubeObject, fieldManager: string): Promise<void> {
  await client.apply(crd, fieldManager);
  const ref = {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    name: crd.metadata?.name ?? '',
  };
  for (;;) {
    const live = await client.get<KubeObject>(ref);
    if (live && crdSettled(live)) return;
    await sleep(100);
  }
}
