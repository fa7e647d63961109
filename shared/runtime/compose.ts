import type { KubeConfig } from '@kubernetes/client-node';
import { KubeClient } from '../k8s/client.ts';
import { ModuleArtifacts } from '../module/descriptors.ts';
import { RegistryClient } from '../oci/registry.ts';
import type { Config } from './config.ts';
import type { FunctionDeps } from './deps.ts';
import type { EventSink } from './sink.ts';

/** The composition root of every function: KCP client, module registry client, descriptor cache, sink. */
export async function composeDeps(kcp: KubeConfig, config: Config, sink: EventSink): Promise<FunctionDeps> {
  if (!config.registry.base) throw new Error('LIFECYCLE_OCI_REGISTRY is not set: the module registry (host[:port], http:// for plain HTTP) is required');
  const registry = new RegistryClient({ host: config.registry.base, plainHttp: config.registry.plainHttp });
  return { kcp: await KubeClient.from(kcp), config, sink, registry, artifacts: new ModuleArtifacts(registry) };
}
