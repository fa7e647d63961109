import { inject } from 'vitest';
import { BINARY_NAMES, startCluster, type Binaries, type Cluster } from '../../local/controlplane/index.ts';

/** One more runtime cluster (with workloads) for tests that remove a runtime; reaped with the run directory. */
export function throwawayRuntime(name: string): Promise<Cluster> {
  const cp = inject('controlPlane');
  const binaries = Object.fromEntries(BINARY_NAMES.map((b) => [b, `${cp.binDir}/${b}`])) as Binaries;
  return startCluster({ name, runDir: cp.runDir, binaries, workloads: true });
}
