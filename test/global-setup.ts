import type { TestProject } from 'vitest/node';
import { startControlPlane, type ControlPlane } from '../shared/controlplane/index.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    controlPlane: {
      kcp: string;
      runtimes: string[];
      registryHost: string;
      runDir: string;
      binDir: string;
    };
  }
}

let controlPlane: ControlPlane | undefined;

/** One real control plane for the integration project: KCP + 2 runtimes (with workloads) + an OCI registry. */
export async function setup(project: TestProject): Promise<void> {
  console.log(`[test] node ${process.version} (${process.execPath})`);
  controlPlane = await startControlPlane({ runtimes: 2, progress: (line) => console.log(`[test] ${line}`) });
  const { kcp, runtimes, registry, runDir, binaries } = controlPlane;
  project.provide('controlPlane', {
    kcp: kcp.kubeconfig,
    runtimes: runtimes.map((r) => r.kubeconfig),
    registryHost: registry?.host ?? '',
    runDir,
    binDir: binaries.etcd.replace(/\/etcd$/, ''),
  });
}

export async function teardown(): Promise<void> {
  await controlPlane?.stop();
}
