// Concurrency faults: independent instances of every function (local runners) that count the conflicts their
// functions answer, the KCP's own count of refused writes (409) from its /metrics, and a user who keeps editing.
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pino } from 'pino';
import { parseAllDocuments } from 'yaml';
import { inject } from 'vitest';
import {
  diffCounters,
  parseRequestCounters,
  scrapeMetrics,
  type RequestCounter,
} from '../../bench/apiserver-metrics.ts';
import { loadKubeConfig } from '../../local/controlplane/index.ts';
import type { KymaModule } from '../../shared/core/kyma.ts';
import { API_VERSION, KCP_NAMESPACE, LABEL } from '../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { sampleRawManifest } from '../../tools/module/sample.ts';
import { readConfig } from '../../shared/host/config.ts';
import { createLogger } from '../../shared/host/logger.ts';
import { startLocalRunner, type LocalRunner } from '../../local/runner/local-runner.ts';
import { manifestsOf, REMOTE_KYMA, type World } from '../e2e/world.ts';

/** One complete instance of the lifecycle manager and the LCM_ERR_CONFLICT outcomes of its functions, by function. */
export interface Instance {
  readonly runner: LocalRunner;
  readonly conflicts: ReadonlyMap<string, number>;
}

/** Starts every function, broker and source once more against the shared KCP; all its log lines go to the hygiene directory. */
export async function startInstance(label: string): Promise<Instance> {
  const cp = inject('controlPlane');
  const conflicts = new Map<string, number>();
  const file = pino.destination({
    dest: join(cp.hygieneDir, `log-faults-${label}-${process.pid}-${Date.now()}.jsonl`),
    sync: true,
  });
  const counter = { write: (line: string) => countConflict(line, conflicts) };
  const log = createLogger(
    label,
    'trace',
    pino.multistream([
      { level: 'trace', stream: file },
      { level: 'warn', stream: counter },
    ]),
  );
  const config = readConfig({ LIFECYCLE_OCI_REGISTRY: `http://${cp.registryHost}` });
  const runner = await startLocalRunner({ kcp: loadKubeConfig(cp.kcp), config, log });
  return { runner, conflicts };
}

function countConflict(line: string, into: Map<string, number>): void {
  const entry = JSON.parse(line) as { fn?: string; code?: string; status?: number };
  if (entry.code === 'LCM_ERR_CONFLICT' && entry.status === 409)
    into.set(entry.fn ?? '', (into.get(entry.fn ?? '') ?? 0) + 1);
}

export const total = (counts: ReadonlyMap<string, number>) => [...counts.values()].reduce((a, b) => a + b, 0);

/** The shared KCP's `apiserver_request_total` counters now. */
export async function kcpRequestCounters(): Promise<RequestCounter[]> {
  const kubeConfig = loadKubeConfig(inject('controlPlane').kcp);
  const server = kubeConfig.getCurrentCluster()?.server ?? '';
  return parseRequestCounters(await scrapeMetrics({ server, kubeConfig: () => kubeConfig }));
}

const LIFECYCLE_OBJECTS = /^(kymas|manifests)\.operator\.kyma-project\.io(\/status)?$/;

/**
 * Writes to Kymas and Manifests (and their status) the KCP refused with 409 between two scrapes, by `<verb>
 * <resource>`: optimistic-concurrency conflicts. Creates are left out (their 409 means AlreadyExists).
 */
export function refusedWrites(before: RequestCounter[], after: RequestCounter[]): Record<string, number> {
  const refused: Record<string, number> = {};
  for (const c of diffCounters(before, after)) {
    if (c.code !== 409 || c.verb === 'post' || !LIFECYCLE_OBJECTS.test(c.resource)) continue;
    refused[`${c.verb} ${c.resource}`] = (refused[`${c.verb} ${c.resource}`] ?? 0) + c.value;
  }
  return refused;
}

export interface UserEdits {
  specToggles: number;
  kymaAnnotations: number;
  manifestAnnotations: number;
  /** The last annotation value the user wrote to the KCP Kyma, and to each Manifest (by name). */
  lastKymaEdit: string;
  lastManifestEdit: Map<string, string>;
  /** Modules whose Manifest the user saw (and annotated) during the edits. */
  manifestModules: Set<string>;
}

export const USER_ANNOTATION = 'faults.kyma-project.io/user-edit';

/**
 * A user at work for `seconds`, three loops at once: switching the runtime Kyma's module list between the
 * `alternatives` (the user's entry point), annotating the KCP Kyma, annotating its Manifests — each a plain merge
 * patch, so the user's writes never conflict; the functions' conditional writes do.
 */
export async function userEdits(
  world: World,
  kyma: string,
  alternatives: KymaModule[][],
  seconds: number,
): Promise<UserEdits> {
  const runtime = world.kymaRuntime.get(kyma);
  if (!runtime) throw new Error(`no runtime connected for Kyma ${kyma}`);
  const until = Date.now() + seconds * 1000;
  const edits: UserEdits = {
    specToggles: 0,
    kymaAnnotations: 0,
    manifestAnnotations: 0,
    lastKymaEdit: '',
    lastManifestEdit: new Map(),
    manifestModules: new Set(),
  };
  const kymaRef = { apiVersion: API_VERSION, kind: 'Kyma', namespace: KCP_NAMESPACE, name: kyma };
  const annotate = (value: string) => ({ metadata: { annotations: { [USER_ANNOTATION]: value } } });
  await Promise.all([
    repeat(until, 400, async (i) => {
      await runtime.mergePatch(REMOTE_KYMA, { spec: { modules: alternatives[(i + 1) % alternatives.length] } });
      edits.specToggles++;
    }),
    repeat(until, 25, async (i) => {
      await world.kcp.mergePatch(kymaRef, annotate(`kyma-${i}`));
      edits.kymaAnnotations++;
      edits.lastKymaEdit = `kyma-${i}`;
    }),
    repeat(until, 100, async (i) => {
      for (const m of await manifestsOf(world, kyma)) {
        const ok = await world.kcp
          .mergePatch(
            { apiVersion: API_VERSION, kind: 'Manifest', namespace: KCP_NAMESPACE, name: m.metadata.name },
            annotate(`manifest-${i}`),
          )
          .then(
            () => true,
            () => false,
          );
        if (!ok) continue;
        edits.lastManifestEdit.set(m.metadata.name, `manifest-${i}`);
        edits.manifestAnnotations++;
        edits.manifestModules.add(m.metadata.labels?.[LABEL.moduleName] ?? '');
      }
    }),
  ]);
  return edits;
}

async function repeat(until: number, pauseMs: number, step: (i: number) => Promise<void>): Promise<void> {
  for (let i = 0; Date.now() < until; i++) {
    await step(i);
    await sleep(pauseMs);
  }
}

/** What a sample module version puts on a runtime, in apply order. */
function moduleObjects(module: string): RuntimeObject[] {
  return parseAllDocuments(sampleRawManifest({ name: module, version: '1.0.0' })).map((d) => d.toJS() as RuntimeObject);
}

const refOf = (o: RuntimeObject) => ({
  apiVersion: o.apiVersion,
  kind: o.kind,
  name: o.metadata.name,
  namespace: o.metadata.namespace,
});

/** The objects of a sample module that exist on the runtime, as `Kind name`. */
export async function moduleObjectsOn(runtime: KubeClient, module: string): Promise<string[]> {
  const present = await Promise.all(
    moduleObjects(module).map(async (o) => ((await runtime.get(refOf(o))) ? [`${o.kind} ${o.metadata.name}`] : [])),
  );
  return present.flat();
}

/**
 * Deletes what a sample module version puts on a runtime, where still present, and names what it found: afterAll's
 * safety net so that a module a lost race left behind does not stay on the runtime other test files share.
 */
export async function removeModuleLeftovers(runtime: KubeClient, module: string): Promise<string[]> {
  const found: string[] = [];
  for (const o of moduleObjects(module).reverse()) {
    if (await runtime.delete(refOf(o)).catch(() => false)) found.push(`${o.kind} ${o.metadata.name}`);
  }
  return found;
}

interface RuntimeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
}
