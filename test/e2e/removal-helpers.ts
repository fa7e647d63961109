import { KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { isNotFound } from '../../shared/kube/errors.ts';
import { publishSampleModule, setReleaseChannels } from '../../tools/module/publish.ts';
import { sampleGroup, sampleKind, type SampleModuleOptions } from '../../tools/module/sample.ts';
import { applyKyma, connectRuntime, deleteKyma, kymaGone, kymaInState, type World } from './world.ts';

/** Publishes a module with versions on channels (`regular` gets the first version). */
export async function publishModule(
  world: World,
  name: string,
  versions: string[],
  extra: Partial<SampleModuleOptions> = {},
): Promise<void> {
  for (const version of versions)
    await publishSampleModule(world.registry, world.kcp, { name, version, namespace: KCP_NAMESPACE, ...extra });
  await setReleaseChannels(world.kcp, KCP_NAMESPACE, name, [{ channel: 'regular', version: versions[0] ?? '' }]);
}

export const crRef = (module: string, name: string, namespace?: string) => ({
  apiVersion: `${sampleGroup(module)}/v1alpha1`,
  kind: sampleKind(module),
  name,
  namespace,
});

/** A CR of the module's kind created by a user (not by the lifecycle manager), optionally with a finalizer. */
export async function userCr(
  runtime: KubeClient,
  module: string,
  name: string,
  namespace: string | undefined,
  finalizers: string[] = [],
): Promise<void> {
  if (namespace)
    await runtime.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }).catch(() => undefined);
  await runtime.create({
    apiVersion: `${sampleGroup(module)}/v1alpha1`,
    kind: sampleKind(module),
    metadata: { name, ...(namespace ? { namespace } : {}), ...(finalizers.length ? { finalizers } : {}) },
    spec: { mine: true },
  });
}

export async function dropFinalizers(runtime: KubeClient, ref: ReturnType<typeof crRef>): Promise<void> {
  await runtime.mergePatch(ref, { metadata: { finalizers: null } });
}

export const deploymentOf = (runtime: KubeClient, module: string) =>
  runtime.get<{
    kind?: string;
    metadata?: { name?: string; labels?: Record<string, string> };
    spec?: { template?: { spec?: { containers?: { image?: string }[] } } };
  }>({ apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'kyma-system', name: `${module}-manager` });

/** A module CR as the runtime has it: undefined when it is gone — also when its kind went with the module's CRD. */
export const moduleCrOn = (runtime: KubeClient, ref: ReturnType<typeof crRef>) =>
  runtime.get(ref).catch((e: unknown) => {
    if (isNotFound(e)) return undefined;
    throw e;
  });

/** Kyma `kyma` on runtime `runtime` with `module` (channel regular), Ready. */
export async function installed(
  world: World,
  kyma: string,
  runtime: number,
  module: string,
  extra: object = {},
): Promise<void> {
  await connectRuntime(world, kyma, runtime);
  await applyKyma(world, kyma, { channel: 'regular', modules: [{ name: module, ...extra }] });
  await kymaInState(world, kyma, 'Ready', (k) => k.status?.modules?.[0]?.state === 'Ready');
}

/** Deletes the Kyma and waits until it is gone. */
export async function removeAndCleanUp(world: World, kyma: string): Promise<void> {
  await deleteKyma(world, kyma);
  await kymaGone(world, kyma);
}
