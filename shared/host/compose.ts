import type { ClusterConfig } from '../kube/kubeconfig.ts';
import { KubeClient } from '../kube/client.ts';
import { ModuleArtifacts } from '../oci/module-artifacts.ts';
import { RegistryClient } from '../oci/registry.ts';
import type { Config } from './config.ts';
import { registryAccess } from './registry-access.ts';
import type { FunctionDeps } from './deps.ts';
import type { EventSink } from './sink.ts';

/** The composition root of every function: KCP client, module registry client, descriptor cache, sink. */
export async function composeDeps(kcp: ClusterConfig, config: Config, sink: EventSink): Promise<FunctionDeps> {
  const client = await KubeClient.from(kcp);
  const access = await registryAccess(client, config);
  const registry = new RegistryClient(access);
  return { kcp: client, config, sink, registry, artifacts: new ModuleArtifacts(registry, access.allowedHosts) };
}
