import type { KubeClient } from '../k8s/client.ts';
import type { ModuleArtifacts } from '../module/descriptors.ts';
import type { RegistryClient } from '../oci/registry.ts';
import type { Config } from './config.ts';
import type { EventSink } from './sink.ts';

/** What a function gets from its composition root (built once per process in `init`). */
export interface FunctionDeps {
  kcp: KubeClient;
  config: Config;
  sink: EventSink;
  registry: RegistryClient;
  artifacts: ModuleArtifacts;
}
