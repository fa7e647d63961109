import { API_VERSION, LABEL } from '../core/vocabulary.ts';
import type { KubeClient } from '../kube/client.ts';
import type { CachedKind } from '../kube/types.ts';
import type { ModuleArtifacts } from '../oci/module-artifacts.ts';
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

/** What functions may read from watch caches (ADR 15): the collections they would otherwise list per call. */
export const CACHED: Readonly<
  Record<'kymas' | 'manifests' | 'templates' | 'releaseMetas' | 'kubeconfigs', CachedKind>
> = {
  /** Read for every event (each function checks its Kyma); decisions that destroy confirm with a live read. */
  kymas: { apiVersion: API_VERSION, kind: 'Kyma' },
  manifests: { apiVersion: API_VERSION, kind: 'Manifest' },
  templates: { apiVersion: API_VERSION, kind: 'ModuleTemplate' },
  releaseMetas: { apiVersion: API_VERSION, kind: 'ModuleReleaseMeta' },
  /** Only Secrets that carry the kyma-name label; lists by that label are served, Secrets by name are read live. */
  kubeconfigs: { apiVersion: 'v1', kind: 'Secret', labelSelector: LABEL.kymaName },
};

/** The deps of a function that reads `kinds` from the KCP's watch caches, unless LIFECYCLE_KCP_READ_CACHE=false. */
export function readingFromCaches(deps: FunctionDeps, kinds: readonly CachedKind[]): FunctionDeps {
  return deps.config.kcpReadCache ? { ...deps, kcp: deps.kcp.cachingReads(kinds) } : deps;
}
