import type { KubeClient } from '../../shared/k8s/client.ts';
import type { Logger } from '../../shared/runtime/logger.ts';
import type { LayerCache } from './layer.ts';

export interface ApplyContext {
  kcp: KubeClient;
  layers: LayerCache;
  log: Logger;
  /** The runtime image pull Secret every module workload gets (LIFECYCLE_RUNTIME_IMAGE_PULL_SECRET), if any. */
  pullSecret: string | undefined;
}
