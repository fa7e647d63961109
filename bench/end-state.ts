// What a run converged to, as counts that two runs of the same size can compare (1 and 3 instances per function):
// Kymas by state, their modules by name@version:state, and the Manifests by module@version:state. Which Kymas the
// busy edits pick depends on timing, so the summary counts; it names no Kyma.
import { createHash } from 'node:crypto';
import type { KubeClient } from '../shared/kube/client.ts';
import type { Kyma } from '../shared/core/kyma.ts';
import { API_VERSION, KCP_NAMESPACE, LABEL } from '../shared/core/vocabulary.ts';
import type { KubeObject } from '../shared/kube/types.ts';

type Manifest = KubeObject & {
  metadata: { labels?: Record<string, string> };
  spec?: { version?: string };
  status?: { state?: string };
};

export interface EndState {
  kymas: Record<string, number>;
  modules: Record<string, number>;
  manifests: Record<string, number>;
  /** sha256 (12 hex digits) of the three counts above: equal digests, equal end states. */
  digest: string;
}

const count = (keys: string[]) =>
  Object.fromEntries(
    [...keys.reduce((m, k) => m.set(k, (m.get(k) ?? 0) + 1), new Map<string, number>())].sort(([a], [b]) =>
      a.localeCompare(b),
    ),
  );

/** PURE. The end state of these Kymas and Manifests. */
export function endStateOf(kymas: readonly Kyma[], manifests: readonly Manifest[]): EndState {
  const summary = {
    kymas: count(kymas.map((k) => k.status?.state ?? 'none')),
    modules: count(
      kymas.flatMap((k) => (k.status?.modules ?? []).map((m) => `${m.name}@${m.version ?? '?'}:${m.state ?? '?'}`)),
    ),
    manifests: count(
      manifests.map(
        (m) => `${m.metadata.labels?.[LABEL.moduleName] ?? '?'}@${m.spec?.version ?? '?'}:${m.status?.state ?? '?'}`,
      ),
    ),
  };
  return { ...summary, digest: createHash('sha256').update(JSON.stringify(summary)).digest('hex').slice(0, 12) };
}

export async function readEndState(kcp: KubeClient): Promise<EndState> {
  const kymas = (await kcp.list<Kyma>(API_VERSION, 'Kyma', { namespace: KCP_NAMESPACE })).items;
  const manifests = (await kcp.list<Manifest>(API_VERSION, 'Manifest', { namespace: KCP_NAMESPACE })).items;
  return endStateOf(kymas, manifests);
}
