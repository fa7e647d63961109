// The reads behind `why` (CLI and fleet component): the Kyma, its Manifests, the Events about them.
import type { Kyma } from '../../shared/core/kyma.ts';
import type { Manifest } from '../../shared/core/manifest.ts';
import { API_VERSION, LABEL } from '../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { parseTraceparent } from '../../shared/host/trace.ts';
import { explainKyma, type Explanation, type KubeEvent } from './explain.ts';

/** The explanation of Kyma `namespace/name` (only `module`'s chain when given); undefined when there is no such Kyma. */
export async function readExplanation(
  kcp: KubeClient,
  namespace: string,
  name: string,
  module: string | undefined,
): Promise<Explanation | undefined> {
  const kyma = await kcp.get<Kyma>({ apiVersion: API_VERSION, kind: 'Kyma', namespace, name });
  if (!kyma) return undefined;
  const manifests = (
    await kcp.list<Manifest>(API_VERSION, 'Manifest', { namespace, labelSelector: `${LABEL.kymaName}=${name}` })
  ).items;
  const involved = [name, ...manifests.map((m) => m.metadata.name)];
  const events = (
    await Promise.all(
      involved.map(
        async (n) =>
          (
            await kcp.list<KubeEvent & { metadata?: { name?: string } }>('v1', 'Event', {
              namespace,
              fieldSelector: `involvedObject.name=${n}`,
            })
          ).items,
      ),
    )
  ).flat();
  return explainKyma(kyma, manifests, events, module, parseTraceparent(kyma.status?.lastTrace)?.traceId);
}
