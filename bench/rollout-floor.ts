// `npm run bench:rollout-floor`: the floor under the side-by-side's "all Kymas Ready" on this machine. N runtime API
// servers with real rollouts (controller-manager, scheduler, kwok), then the same sample modules' raw manifests (CRD,
// ServiceAccount, ConfigMap, Deployment) applied straight to every runtime at once by a bare client — no lifecycle
// manager, no KCP work, no catalog or Kyma on the runtime, no default CR — until every Deployment is Available. What
// any lifecycle manager takes above it is its own. `--lifecycle` adds what every lifecycle manager writes on a runtime
// besides (rollout-floor-lifecycle.ts): the floor under any implementation's "all Ready", upstream's included.
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import { parseAllDocuments } from 'yaml';
import { startControlPlane } from '../local/controlplane/index.ts';
import { KubeClient } from '../shared/kube/client.ts';
import type { KubeObject } from '../shared/kube/types.ts';
import { sampleRawManifest } from '../tools/module/sample.ts';
import { LOAD_FLAGS } from './fleet.ts';
import { parseFloorArgs } from './rollout-floor-args.ts';
import { defaultCrs, establish, lifecycleObjects, runtimeLifecycleCrds } from './rollout-floor-lifecycle.ts';
import { readProcessUsage } from './process-usage.ts';

const { runtimes, modules, lifecycle } = parseFloorArgs(process.argv.slice(2));
const NAMES = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'].slice(0, modules);
const FIELD_MANAGER = 'rollout-floor';
const say = (line: string) => console.error(`[rollout-floor] ${line}`);
/** With --lifecycle: the lifecycle CRDs, and what goes once every CRD is established; read before any timing. */
const lifecycleWrites = lifecycle && {
  crds: await runtimeLifecycleCrds(),
  after: [...lifecycleObjects(NAMES), ...defaultCrs(NAMES)],
};

/** The machine's busy share between two readings of /proc/stat. */
const cpuTimes = () => {
  const fields = (readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '').split(/\s+/).slice(1).map(Number);
  return { idle: (fields[3] ?? 0) + (fields[4] ?? 0), all: fields.reduce((a, b) => a + b, 0) };
};

const isCrd = (o: KubeObject) => o.kind === 'CustomResourceDefinition';

async function install(client: KubeClient, objects: KubeObject[]): Promise<void> {
  await client.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'kyma-system' } }, FIELD_MANAGER);
  if (lifecycleWrites) return installLifecycle(client, objects, lifecycleWrites);
  for (const crd of objects.filter(isCrd)) await client.apply(crd, FIELD_MANAGER);
  await Promise.all(objects.filter((o) => !isCrd(o)).map((o) => client.apply(o, FIELD_MANAGER)));
}

/** The modules' own objects at once; beside them the CRDs one after another, each established, then their objects. */
async function installLifecycle(
  client: KubeClient,
  objects: KubeObject[],
  writes: { crds: KubeObject[]; after: KubeObject[] },
): Promise<void> {
  const crds = [...writes.crds, ...objects.filter(isCrd)];
  await Promise.all([
    ...objects.filter((o) => !isCrd(o)).map((o) => client.apply(o, FIELD_MANAGER)),
    (async () => {
      for (const crd of crds) await establish(client, crd, FIELD_MANAGER);
      await Promise.all(writes.after.map((o) => client.apply(o, FIELD_MANAGER)));
    })(),
  ]);
}

/** CPU seconds so far of the clusters' processes by kind (`runtime kube-apiserver`: all runtimes' together). */
async function cpuByProcess(processes: { name: string; pid: number }[]): Promise<Record<string, number>> {
  const total: Record<string, number> = {};
  for (const p of processes) {
    const kind = p.name.replace(/^runtime-\d+-/, 'runtime ').replace(/^kcp-/, 'kcp ');
    total[kind] = (total[kind] ?? 0) + ((await readProcessUsage(p.pid))?.cpuSeconds ?? 0);
  }
  return total;
}

/** What a Deployment's rollout shows. */
type RolledOut = KubeObject & {
  metadata?: { generation?: number };
  status?: { availableReplicas?: number; observedGeneration?: number };
};

async function available(client: KubeClient, deployment: KubeObject): Promise<void> {
  const ref = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    namespace: 'kyma-system',
    name: deployment.metadata?.name ?? '',
  };
  for (;;) {
    const seen = await client.get<RolledOut>(ref);
    const status = seen?.status;
    if ((status?.availableReplicas ?? 0) >= 1 && status?.observedGeneration === seen?.metadata?.generation) return;
    await sleep(100);
  }
}

const plane = await startControlPlane({ runtimes, apiServerFlags: LOAD_FLAGS, progress: say });
try {
  const clients = await Promise.all(plane.runtimes.map((r) => KubeClient.from(r.kubeConfig(), { http2: true })));
  const objects = NAMES.flatMap((name) =>
    parseAllDocuments(sampleRawManifest({ name, version: '1.0.0' })).map((doc) => doc.toJS() as KubeObject),
  );
  await sleep(5000); // the runtimes' controllers settled after their start
  const processes = [plane.kcp, ...plane.runtimes].flatMap((c) => c.processes);
  const cpuBefore = await cpuByProcess(processes);
  const before = cpuTimes();
  const start = performance.now();
  await Promise.all(clients.map((client) => install(client, objects)));
  const applied = (performance.now() - start) / 1000;
  const deployments = objects.filter((o) => o.kind === 'Deployment');
  await Promise.all(clients.flatMap((client) => deployments.map((d) => available(client, d))));
  const seconds = (performance.now() - start) / 1000;
  const after = cpuTimes();
  const cpuAfter = await cpuByProcess(processes);
  const cpuSeconds = Object.fromEntries(
    Object.entries(cpuAfter).map(([kind, s]) => [kind, +(s - (cpuBefore[kind] ?? 0)).toFixed(2)]),
  );
  const busy = 1 - (after.idle - before.idle) / Math.max(1, after.all - before.all);
  console.log(
    JSON.stringify({
      runtimes,
      modules,
      lifecycle,
      deployments: runtimes * deployments.length,
      appliedSeconds: +applied.toFixed(2),
      allAvailableSeconds: +seconds.toFixed(2),
      machineBusy: +busy.toFixed(2),
      cpuSeconds,
    }),
  );
} finally {
  await plane.stop();
}
