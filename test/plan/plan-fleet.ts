// The fleet plan.test.ts plans on: a KCP and a runtime whose kube-apiservers keep an audit log, two Kymas with module
// plom installed (regular 1.0.0, fast 2.0.0), a user CR that holds a removal; and how the test runs the plan CLI.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments } from 'yaml';
import { expect, inject } from 'vitest';
import type { Cluster } from '../../local/controlplane/index.ts';
import { loadKubeConfig } from '../../local/controlplane/index.ts';
import { KCP_NAMESPACE, LABEL } from '../../shared/core/vocabulary.ts';
import { KubeClient } from '../../shared/kube/client.ts';
import { publishSampleModule, setReleaseChannels } from '../../tools/module/publish.ts';
import type { PlanReport, PlanRow } from '../../components/fleet/plan/report.ts';
import { startAuditedCluster } from '../deploy/audited-kcp.ts';
import { crRef, userCr } from '../e2e/removal-helpers.ts';
import { writeSnapshot } from '../e2e/snapshot.ts';
import { applyKyma, connectRuntime, kymaInState, startWorld, stopWorld, type World } from '../e2e/world.ts';

export const CLI = join(import.meta.dirname, '..', '..', 'tools', 'fleet', 'cli', 'main.ts');
export const MODULE_CLI = join(import.meta.dirname, '..', '..', 'tools', 'module', 'cli', 'main.ts');
export const GREETER = fileURLToPath(new URL('../fixtures/charts/greeter', import.meta.url));
export const WIDGET_CRD = fileURLToPath(new URL('../fixtures/charts/widget-crd.yaml', import.meta.url));
export const CHART_MODULE = 'plan-chart';
export const PLANNER = 'kyma-planner';
export const RUNTIME_USER = 'lifecycle-runtime';
export const READS = new Set(['get', 'list', 'watch']);
export let kcp: { cluster: Cluster; auditLog: string };
export let runtime: { cluster: Cluster; auditLog: string };
export let runtimeClient: KubeClient;
export let world: World;
export let dir: string;
export let kubeconfig: string;

/** The module CLI (a real process, as helm-module.test.ts runs it) packages the greeter chart; its ModuleTemplate goes
 * to the KCP, and its ModuleReleaseMeta (channel regular) only when `release`. */
export async function publishChart(
  version: string,
  chart: string,
  values: string,
  release: boolean,
  crds: string[] = [],
): Promise<void> {
  const valuesFile = join(dir, `values-${version}.yaml`);
  await writeFile(valuesFile, values);
  const args = [
    '--name',
    CHART_MODULE,
    '--version',
    version,
    '--chart',
    chart,
    '--values',
    valuesFile,
    ...crds.flatMap((c) => ['--crds', c]),
    '--registry',
    `http://${inject('controlPlane').registryHost}`,
    '--channel',
    'regular',
    '--overwrite',
  ];
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(process.execPath, [MODULE_CLI, ...args], (error, out, err) =>
      error ? reject(new Error(`module CLI failed: ${err}`)) : resolve(out),
    );
  });
  for (const doc of parseAllDocuments(stdout)) {
    const object = doc.toJS() as { kind?: string };
    if (release || object.kind === 'ModuleTemplate') await world.kcp.apply(object as never, 'e2e-user');
  }
}

export function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, 'plan', ...args, '--kubeconfig', kubeconfig, '--registry', `http://${inject('controlPlane').registryHost}`],
      { env: { ...process.env, KUBECONFIG: '', LIFECYCLE_HELM_BINARY: `${inject('controlPlane').binDir}/helm` } },
      (error, stdout, stderr) => resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr }),
    );
  });
}

export async function planJson(...args: string[]): Promise<PlanReport> {
  const run = await cli(...args, '--output', 'json');
  expect(run.stderr.split('\n').filter((l) => l && !l.startsWith('plan: '))).toEqual([]);
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as PlanReport;
}

export const rowOf = (report: PlanReport, kyma: string) =>
  report.rows.find((r) => r.kyma === kyma && r.module === 'plom');
export const diffOf = (row: PlanRow | undefined) =>
  row?.runtime && 'created' in row.runtime ? row.runtime : undefined;
export const moduleVersion =
  (version: string) => (k: { status?: { modules?: { name: string; state?: string; version?: string }[] } }) =>
    k.status?.modules?.some((m) => m.name === 'plom' && m.state === 'Ready' && m.version === version) ?? false;

/** The fleet, installed and Ready. */
export async function startPlanFleet(): Promise<void> {
  kcp = await startAuditedCluster('kcp-plan', { users: [PLANNER] }, { garbageCollection: true });
  runtime = await startAuditedCluster('runtime-plan', { users: [RUNTIME_USER] }, { workloads: true });
  const runtimeKubeconfig = await runtime.cluster.kubeconfigFor(RUNTIME_USER, ['system:masters']);
  runtimeClient = await KubeClient.from(loadKubeConfig(runtimeKubeconfig));
  world = await startWorld({}, { kcp: kcp.cluster.kubeconfig });
  dir = await mkdtemp(join(tmpdir(), 'plan-'));
  kubeconfig = join(dir, 'planner.kubeconfig');
  await writeFile(kubeconfig, await kcp.cluster.kubeconfigFor(PLANNER, ['system:masters']), { mode: 0o600 });
  const publish = (version: string, extra: object) =>
    publishSampleModule(world.registry, world.kcp, { name: 'plom', version, namespace: KCP_NAMESPACE, ...extra });
  await publish('1.0.0', { extraConfigMap: 'plom-one' });
  await publish('2.0.0', { extraConfigMap: 'plom-two' });
  await publish('3.0.0', { requiresDowntime: true });
  await setReleaseChannels(world.kcp, KCP_NAMESPACE, 'plom', [
    { channel: 'regular', version: '1.0.0' },
    { channel: 'fast', version: '2.0.0' },
  ]);
  await world.kcp.apply(
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'plan-a', namespace: KCP_NAMESPACE, labels: { [LABEL.kymaName]: 'plan-a' } },
      data: { config: Buffer.from(runtimeKubeconfig).toString('base64') },
    },
    'e2e-user',
  );
  world.kymaRuntime.set('plan-a', runtimeClient);
  await connectRuntime(world, 'plan-b', 1);
  await applyKyma(world, 'plan-a', { channel: 'regular', modules: [{ name: 'plom' }] });
  await applyKyma(world, 'plan-b', { channel: 'fast', modules: [{ name: 'plom' }] });
  await kymaInState(world, 'plan-a', 'Ready', moduleVersion('1.0.0'));
  await kymaInState(world, 'plan-b', 'Ready', moduleVersion('2.0.0'));
  await userCr(runtimeClient, 'plom', 'mine', 'team-plan');
}

export async function stopPlanFleet(): Promise<void> {
  await runtimeClient?.delete(crRef('plom', 'mine', 'team-plan')).catch(() => undefined); // it would hold the deletion
  await stopWorld(world);
  await runtime?.cluster.stop();
  await kcp?.cluster.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
}

/** Waits until nothing in the KCP or on the audited runtime moves any more (the fleet converged). */
export async function settled(): Promise<Record<string, string>> {
  let last = await writeSnapshot(world.kcp, [runtimeClient]);
  for (let round = 0; round < 20; round++) {
    await world.runner.broker.idle();
    await new Promise((resolve) => setTimeout(resolve, 2000));
    const now = await writeSnapshot(world.kcp, [runtimeClient]);
    if (JSON.stringify(now) === JSON.stringify(last)) return now;
    last = now;
  }
  throw new Error('the fleet did not settle');
}
