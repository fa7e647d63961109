import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import type { KubeClient } from '../shared/kube/client.ts';
import type { KubeObject } from '../shared/kube/types.ts';
import { isConflict } from '../shared/kube/errors.ts';

export interface WriteCeilingOptions {
  seconds: number;
  /** Parallel writers; above 32 they queue on the client's keep-alive agent (maxSockets 32). */
  concurrency: number;
  kind?: 'ConfigMap';
}

export interface WriteCeiling {
  writes: number;
  /** Wall time from the first request to the last answer (requests started before the deadline finish). */
  seconds: number;
  writesPerSecond: number;
  errors: number;
  firstError?: string;
  /** Latencies of the successful creates; NaN when there were none. */
  p50Ms: number;
  p99Ms: number;
}

export const CEILING_LABEL = 'bench.kyma-project.io/ceiling';
const SELECTOR = `${CEILING_LABEL}=true`;
const PAYLOAD = 'x'.repeat(64);

/** Nearest-rank percentile (`p` in 0…100) of an ascending array; NaN for an empty one. */
export function percentile(sorted: readonly number[], p: number): number {
  if (!sorted.length) return Number.NaN;
  const rank = Math.ceil((Math.min(Math.max(p, 0), 100) / 100) * sorted.length);
  return sorted[Math.min(Math.max(rank - 1, 0), sorted.length - 1)] ?? Number.NaN;
}

/**
 * The API server's sustained create rate for small objects: `concurrency` writers create ConfigMaps `ceiling-<n>`
 * (one ~64-byte data key, label `bench.kyma-project.io/ceiling=true`) in `namespace` for `seconds`, then the
 * ConfigMaps are removed with deletecollection (not measured). The namespace is created when missing and kept.
 */
export async function measureWriteCeiling(
  client: KubeClient,
  namespace: string,
  opts: WriteCeilingOptions,
): Promise<WriteCeiling> {
  await ensureNamespace(client, namespace);
  await removeCeilingObjects(client, namespace);
  const latencies: number[] = [];
  let next = 0;
  let errors = 0;
  let firstError: string | undefined;
  const started = performance.now();
  const deadline = started + opts.seconds * 1000;
  const writer = async () => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      try {
        await client.create(configMap(namespace, `ceiling-${next++}`));
        latencies.push(performance.now() - t0);
      } catch (e) {
        errors++;
        firstError ??= e instanceof Error ? e.message : String(e);
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, opts.concurrency) }, writer));
  const seconds = (performance.now() - started) / 1000;
  await removeCeilingObjects(client, namespace);
  latencies.sort((a, b) => a - b);
  return {
    writes: latencies.length,
    seconds,
    writesPerSecond: latencies.length / seconds,
    errors,
    ...(firstError === undefined ? {} : { firstError }),
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
  };
}

interface CeilingConfigMap extends KubeObject {
  metadata: { name: string; namespace: string; labels: Record<string, string> };
  data: Record<string, string>;
}

function configMap(namespace: string, name: string): CeilingConfigMap {
  return {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: { name, namespace, labels: { [CEILING_LABEL]: 'true' } },
    data: { payload: PAYLOAD },
  };
}

async function ensureNamespace(client: KubeClient, namespace: string): Promise<void> {
  await client.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace } }).catch((e: unknown) => {
    if (!isConflict(e)) throw e;
  });
}

/**
 * Deletes every ceiling ConfigMap of the namespace. One deletecollection may outlive the client's 30 s timeout
 * with tens of thousands of objects (the server keeps deleting), so it repeats until a list finds none (5 min max).
 */
export async function removeCeilingObjects(client: KubeClient, namespace: string): Promise<void> {
  const path = `/api/v1/namespaces/${encodeURIComponent(namespace)}/configmaps?labelSelector=${encodeURIComponent(SELECTOR)}`;
  const until = Date.now() + 300_000;
  let lastError = '';
  for (;;) {
    const left = await client.list('v1', 'ConfigMap', { namespace, labelSelector: SELECTOR, limit: 1 });
    if (!left.items.length) return;
    if (Date.now() > until) throw new Error(`ceiling ConfigMaps in ${namespace} still there after 5 min ${lastError}`);
    await client.request('DELETE', path).catch(async (e: unknown) => {
      lastError = `(last: ${e instanceof Error ? e.message : String(e)})`;
      await sleep(1_000);
    });
  }
}
