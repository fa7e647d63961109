import type { Manifest, SyncedResource } from '../../shared/core/manifest.ts';
import { API_VERSION, LABEL } from '../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { holderOf, keptMessage, sameObject, type Ownership } from '../../shared/render/ownership.ts';
import { syncedOf } from '../../shared/render/render.ts';

interface Sibling { key: string; module: string; synced: SyncedResource[] }

/**
 * Objects a Manifest shares with the other installed modules of its Kyma (ADR 33): who holds one is read from its
 * owned-by annotation, who ships one from the other Manifests' `status.synced` — from the watch cache, once per call.
 * Manifests being deleted ship nothing any more. Without a Kyma (a Manifest of its own) there is nobody to share with.
 */
export function moduleOwnership(manifests: KubeClient, manifest: Manifest): Ownership | undefined {
  const kyma = manifest.metadata.labels?.[LABEL.kymaName];
  const namespace = manifest.metadata.namespace ?? '';
  if (!kyma) return undefined;
  let siblings: Promise<Sibling[]> | undefined;
  const others = () => (siblings ??= manifests.scan<Manifest, Sibling | undefined>(API_VERSION, 'Manifest', { namespace, labelSelector: `${LABEL.kymaName}=${kyma}` }, (m) =>
    (m.metadata.name === manifest.metadata.name || m.metadata.deletionTimestamp ? undefined
      : { key: `${namespace}/${m.metadata.name}`, module: m.metadata.labels?.[LABEL.moduleName] ?? m.metadata.name, synced: [...m.status?.synced ?? []] }))
    .then((all) => all.filter((s): s is Sibling => s !== undefined)));
  return {
    async keptBy(live) {
      const holder = holderOf(live);
      if (!holder || holder === `${namespace}/${manifest.metadata.name}`) return undefined;
      const owner = (await others()).find((s) => s.key === holder);
      if (!owner?.synced.some((r) => sameObject(r, syncedOf(live)))) return undefined;
      return keptMessage(live, { manifest: holder, module: owner.module });
    },
    async shippedElsewhere(resource) {
      return (await others()).some((s) => s.synced.some((r) => sameObject(r, resource)));
    },
  };
}
