import type { Manifest, SyncedResource } from '../../shared/core/manifest.ts';
import { API_VERSION, LABEL } from '../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { kindKey } from '../../shared/kube/freshness.ts';
import { eventAbout, RESYNC_DUE, versionIn, type EventAttributes } from '../../shared/host/events.ts';
import type { EventSink } from '../../shared/host/sink.ts';
import { holderOf, keptMessage, sameObject, type Ownership } from '../../shared/render/ownership.ts';
import { syncedOf } from '../../shared/render/render.ts';

interface Sibling {
  key: string;
  module: string;
  synced: SyncedResource[];
}

/** Objects a Manifest shares with the other installed modules of its Kyma (ADR 33), read from the watch cache once per
 * call; Manifests being deleted ship nothing, and a Manifest without a Kyma shares with nobody. */
export function moduleOwnership(manifests: KubeClient, manifest: Manifest): Ownership | undefined {
  const kyma = manifest.metadata.labels?.[LABEL.kymaName];
  const namespace = manifest.metadata.namespace ?? '';
  if (!kyma) return undefined;
  let siblings: Promise<Sibling[]> | undefined;
  const others = () =>
    (siblings ??= manifests
      .scan<Manifest, Sibling | undefined>(
        API_VERSION,
        'Manifest',
        { namespace, labelSelector: `${LABEL.kymaName}=${kyma}` },
        (m) =>
          m.metadata.name === manifest.metadata.name || m.metadata.deletionTimestamp
            ? undefined
            : {
                key: `${namespace}/${m.metadata.name}`,
                module: m.metadata.labels?.[LABEL.moduleName] ?? m.metadata.name,
                synced: [...(m.status?.synced ?? [])],
              },
      )
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

const LABEL_VALUE = /^(?=.{1,63}$)[A-Za-z0-9]([-A-Za-z0-9_.]*[A-Za-z0-9])?$/;

/** PURE. The other Manifests of a deleted one's Kyma that ship one of the objects it had synced (ADR 33), by name. */
export function heirsOf(
  gone: Pick<Manifest, 'metadata' | 'status'>,
  siblings: readonly Pick<Manifest, 'metadata' | 'status'>[],
): string[] {
  const kyma = gone.metadata.labels?.[LABEL.kymaName];
  const objects = gone.status?.synced ?? [];
  if (!kyma || !objects.length) return [];
  return siblings
    .filter(
      (m) =>
        m.metadata.name !== gone.metadata.name &&
        m.metadata.labels?.[LABEL.kymaName] === kyma &&
        !m.metadata.deletionTimestamp,
    )
    .filter((m) => (m.status?.synced ?? []).some((r) => objects.some((o) => sameObject(o, r))))
    .map((m) => m.metadata.name);
}

/** A Manifest is gone (its delete event): each other Manifest of its Kyma that ships one of its objects gets a
 * `resync.due` at once, with the deletion's resourceVersion, and takes the object over (ADR 33). Returns how many. */
export async function handOver(manifests: KubeClient, sink: EventSink, event: EventAttributes): Promise<number> {
  const gone = (event as { data?: Partial<Manifest> }).data;
  const kyma = gone?.metadata?.labels?.[LABEL.kymaName];
  const namespace = typeof event.namespace === 'string' ? event.namespace : '';
  // The event's data only says whom to nudge; a label value that is none (hostile data) nudges nobody.
  if (!gone?.metadata?.name || !kyma || !LABEL_VALUE.test(kyma) || !gone.status?.synced?.length) return 0;
  const siblings = (
    await manifests.list<Manifest>(API_VERSION, 'Manifest', { namespace, labelSelector: `${LABEL.kymaName}=${kyma}` })
  ).items;
  const version = versionIn(event);
  const seen: Record<string, string> = version
    ? { seenkind: kindKey(API_VERSION, 'Manifest'), seenversion: version }
    : {};
  const heirs = heirsOf(gone as Manifest, siblings);
  for (const name of heirs)
    await sink(
      eventAbout(
        RESYNC_DUE,
        'apply-remote',
        { kind: 'Manifest', apiVersion: API_VERSION, namespace, name },
        event,
        seen,
      ),
    );
  return heirs.length;
}
