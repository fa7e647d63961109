import { randomBytes } from 'node:crypto';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { loadKubeConfig, startControlPlane, type ControlPlane } from '../local/controlplane/index.ts';
import { KubeClient } from '../shared/kube/client.ts';
import { keepLedger } from './runtime-kyma-ledger.ts';
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
      /** Every runtime Kyma that appeared or went during the run (test/runtime-kyma-ledger.ts). */
      ledger: string;
    };
  }
}

let controlPlane: ControlPlane | undefined;
const ledgerStop = new AbortController();
let ledger: Promise<void> | undefined;
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
  controlPlane = await startControlPlane({
    runtimes: 2,
    kcpWorkloads: true,
    apiServerFlags: [`--token-auth-file=${tokenFile}`],
    progress: (line) => console.log(`[test] ${line}`),
  });
  const { kcp, runtimes, registry, runDir, binaries } = controlPlane;
  const hygieneDir = join(runDir, 'hygiene');
  await mkdir(hygieneDir, { recursive: true });
  const runtimeKubeconfigs = await Promise.all(runtimes.map((r) => tokenKubeconfig(r, runtimeToken)));
  const ledgerFile = join(hygieneDir, 'runtime-kymas.jsonl');
  const clients = await Promise.all(
    runtimeKubeconfigs.map((k) => KubeClient.from(loadKubeConfig(k), { connections: 2 })),
  );
  ledger = keepLedger(
    await KubeClient.from(loadKubeConfig(kcp.kubeconfig), { connections: 2 }),
    clients,
    ledgerFile,
    ledgerStop.signal,
  );
  project.provide('controlPlane', {
    kcp: kcp.kubeconfig,
    runtimes: runtimeKubeconfigs,
    registryHost: registry?.host ?? '',
    runDir,
    binDir: binaries.etcd.replace(/\/etcd$/, ''),
    runtimeToken,
    hygieneDir,
    ledger: ledgerFile,
  });
}

export async function teardown(): Promise<void> {
  ledgerStop.abort();
  await ledger;
  await controlPlane?.stop();
  await rm(tokenDir, { recursive: true, force: true });
}
