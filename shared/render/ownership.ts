// Objects two modules of one runtime both ship (ADR 33): the module holding one (its owned-by annotation) keeps it;
// another that ships it leaves it as it is, with a Warning unless both ship it alike; no removal deletes an object
// another installed module still ships.
import type { SyncedResource } from '../core/manifest.ts';
import { isCurrent } from '../core/current.ts';
import { ANNOTATION, LABEL } from '../core/vocabulary.ts';
import { withAppliedHash } from '../kube/apply-current.ts';
import type { RuntimeObject } from './render.ts';

export interface Ownership {
  /** Why `live` (as read) stays as another installed module has it; undefined when this module may apply it. */
  keptBy(live: RuntimeObject): Promise<string | undefined>;
  /** True when another installed module ships `resource` too: a removal leaves it, a first install reads it first. */
  shippedElsewhere(resource: SyncedResource): Promise<boolean>;
}

/** PURE. The Manifest (`namespace/name`) that last applied `live`, from its owned-by annotation, if any. */
export const holderOf = (live: RuntimeObject): string | undefined =>
  live.metadata.annotations?.[ANNOTATION.ownedBy] || undefined;

/** PURE. One object across versions: namespace, name, group and kind (a module may ship another version of it). */
export const sameObject = (a: SyncedResource, b: SyncedResource) =>
  a.namespace === b.namespace && a.name === b.name && a.group === b.group && a.kind === b.kind;

/** PURE. Whether `live`, which another module holds, already is what this module would apply (`desired`, prepared for
 * it): its applied-hash is that of `desired` with the holder's owned-by annotation and component label — what `prepare`
 * writes per Manifest —, and nobody changed it since. Then nothing differs and there is nothing to warn about. */
export function sameAsHolder(live: RuntimeObject, desired: RuntimeObject): boolean {
  const asHolder = {
    ...desired,
    metadata: {
      ...desired.metadata,
      labels: withValue(desired.metadata.labels, LABEL.appComponent, live.metadata.labels?.[LABEL.appComponent]),
      annotations: withValue(
        desired.metadata.annotations,
        ANNOTATION.ownedBy,
        live.metadata.annotations?.[ANNOTATION.ownedBy],
      ),
    },
  };
  return isCurrent(live, withAppliedHash(asHolder));
}

function withValue(
  map: Record<string, string> | undefined,
  key: string,
  value: string | undefined,
): Record<string, string> {
  const rest = Object.fromEntries(Object.entries(map ?? {}).filter(([k]) => k !== key));
  return value === undefined ? rest : { ...rest, [key]: value };
}

/** PURE. The status message of an object another module keeps. */
export function keptMessage(live: RuntimeObject, holder: { manifest: string; module: string }): string {
  const where = live.metadata.namespace ? `${live.metadata.namespace}/` : '';
  return `${live.kind} ${where}${live.metadata.name} is shipped by module ${holder.module} too (Manifest ${holder.manifest}), which keeps it: left as that module applied it`;
}
