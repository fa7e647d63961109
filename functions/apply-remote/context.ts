import type { KubeClient } from '../../shared/k8s/client.ts';
import type { Logger } from '../../shared/runtime/logger.ts';
import type { LayerCache } from './layer.ts';

export interface ApplyContext {
  kcp: KubeClient;
  layers: LayerCache;
  log: Logger;
}
