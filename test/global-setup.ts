import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { startControlPlane, type ControlPlane } from '../local/controlplane/index.ts';
import { tokenKubeconfig } from './e2e/tokens.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    controlPlane: {
      kcp: string;
      runtimes: string[];
      registryHost: string;
      runDir: string;
      binDir: string;
      /** The bearer token in every runtime kubeconfig the tests hand out: it must never show up (secret-hygiene.test.ts). */
      runtimeToken: string;
      /** Where the worlds write every log line and object status they see, for secret-hygiene.test.ts. */
      hygieneDir: string;
    };
  }
}

let controlPlane: ControlPlane | undefined;
const tokenDir = join(tmpdir(), `kyma-lifecycle-e2e-${process.pid}`);

/**
 * One real control plane for the integration project: KCP + 2 runtimes (all three with workloads: the KCP for
 * single-cluster mode) + an OCI registry. The
 * runtimes also accept a random static admin token, and the runtime kubeconfigs the tests use carry it.
 */
export async function setup(project: TestProject): Promise<void> {
  console.log(`[test] node ${process.version} (${process.execPath})`);
  const runtimeToken = `e2e-${randomBytes(24).toString('hex')}`;
  await mkdir(tokenDir, { recursive: true });
  const tokenFile = join(tokenDir, 'tokens.csv');
  await writeFile(tokenFile, `${runtimeToken},e2e-admin,e2e-admin,"system:masters"\n`, { mode: 0o600 });
  controlPlane = await startControlPlane({ runtimes: 2, kcpWorkloads: true, apiServerFlags: [`--token-auth-file=${tokenFile}`], progress: (line) => console.log(`[test] ${line}`) });
  const { kcp, runtimes, registry, runDir, binaries } = controlPlane;
  const hygieneDir = join(runDir, 'hygiene');
  await mkdir(hygieneDir, { recursive: true });
  project.provide('controlPlane', {
    kcp: kcp.kubeconfig,
    runtimes: await Promise.all(runtimes.map((r) => tokenKubeconfig(r, runtimeToken))),
    registryHost: registry?.host ?? '',
    runDir,
    binDir: binaries.etcd.replace(/\/etcd$/, ''),
    runtimeToken,
    hygieneDir,
  });
}

export async function teardown(): Promise<void> {
  await controlPlane?.stop();
  await rm(tokenDir, { recursive: true, force: true });
}
