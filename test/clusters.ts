import { inject } from 'vitest';
import type { KubeConfig } from '@kubernetes/client-node';
import { loadKubeConfig } from '../local/controlplane/index.ts';

/** The shared control plane started by global-setup.ts, as client configurations. */
export function clusters(): { kcp: KubeConfig; runtimes: KubeConfig[]; registryHost: string; binDir: string } {
  const cp = inject('controlPlane');
  return {
    kcp: loadKubeConfig(cp.kcp),
    runtimes: cp.runtimes.map(loadKubeConfig),
    registryHost: cp.registryHost,
    binDir: cp.binDir,
  };
}
