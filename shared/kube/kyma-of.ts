import type { Manifest } from '../core/manifest.ts';
import { API_VERSION, LABEL } from '../core/vocabulary.ts';
import type { EventAttributes, ObjectKey } from '../host/events.ts';
import type { KubeClient } from './client.ts';

/** The KCP Kyma an event concerns: the Kyma itself, or a Manifest's owner by the kyma-name label the event carries
 * (it never changes in a Manifest's life), else from the Manifest as stored (a `list` by name: the functions that ask
 * may list Manifests, not get them). Undefined for other kinds, or when neither says. */
export async function kymaNameOf(kcp: KubeClient, key: ObjectKey, event: EventAttributes): Promise<string | undefined> {
  if (key.kind === 'Kyma') return key.name;
  if (key.kind !== 'Manifest') return undefined;
  const carried = carriedKymaName(event);
  if (carried) return carried;
  const { items } = await kcp.list<Manifest>(API_VERSION, 'Manifest', {
    namespace: key.namespace,
    fieldSelector: `metadata.name=${key.name}`,
  });
  return items[0]?.metadata.labels?.[LABEL.kymaName];
}

/** The kyma-name label of the object an event carries (ApiServerSource data), if any. */
export const carriedKymaName = (event: EventAttributes): string | undefined =>
  (event.data as { metadata?: { labels?: Record<string, string> } } | undefined)?.metadata?.labels?.[LABEL.kymaName] ||
  undefined;

/** `namespace/name` of the Kyma an event is about: its own, or a Manifest's by the `kyma-name` label it carries. */
export function kymaKeyOf(event: EventAttributes, key: ObjectKey): string | undefined {
  const kyma = key.kind === 'Kyma' ? key.name : carriedKymaName(event);
  return kyma ? `${key.namespace}/${kyma}` : undefined;
}

/** A function's `serialOf` that runs one call per Kyma at a time (its own events and its Manifests'), a call waiting
 * at most `waitMs` for the one before it. */
export const serialByKyma =
  (waitMs: number) =>
  (event: EventAttributes, key: ObjectKey): { serial: string; waitMs: number } | undefined => {
    const kyma = kymaKeyOf(event, key);
    return kyma ? { serial: kyma, waitMs } : undefined;
  };
