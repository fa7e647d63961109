import { canonicalJson } from '../../shared/core/canonical.ts';
import { effectiveModules, type Kyma, type KymaModule, type ModuleStatus } from '../../shared/core/kyma.ts';
import { isUnmanaged, type Manifest, type ManifestSpec } from '../../shared/core/manifest.ts';
import { chooseManifestName } from '../../shared/core/names.ts';
import { ANNOTATION, LABEL, MANAGED_BY_KCP } from '../../shared/core/vocabulary.ts';
import { desiredManifest, type ModuleSource } from '../../shared/core/desired-manifest.ts';

/** Whether the stored Manifest differs from the desired one in any field render-manifest owns. A spec that means the
 * same is the same: upstream leaves out what is empty and writes `remote: false`, older Manifests of ours have no
 * `remote` (ADR 40) — none of that is a reason to write. */
export function needsWrite(stored: Manifest | undefined, desired: Manifest): boolean {
  if (!stored) return true;
  const subset = (have: Record<string, string> | undefined, want: Record<string, string> | undefined) =>
    Object.entries(want ?? {}).every(([k, v]) => have?.[k] === v);
  return (
    !subset(stored.metadata.labels, desired.metadata.labels) ||
    !subset(stored.metadata.annotations, desired.metadata.annotations) ||
    // An opt-in taken back goes too (the apply of a Manifest without it removes it).
    stored.metadata.annotations?.[ANNOTATION.allowCrdPrune] !==
      desired.metadata.annotations?.[ANNOTATION.allowCrdPrune] ||
    canonicalJson(meaningOf(stored.spec)) !== canonicalJson(meaningOf(desired.spec)) ||
    !(stored.metadata.ownerReferences ?? []).some(
      (o) => o.controller && o.uid === desired.metadata.ownerReferences?.[0]?.uid,
    )
  );
}

/** A spec as it is read: no deprecated `remote`, no empty lists, no nulls. */
function meaningOf(spec: ManifestSpec | undefined): Partial<ManifestSpec> {
  return Object.fromEntries(
    Object.entries(spec ?? {}).filter(
      ([k, v]) => k !== 'remote' && v !== null && !(Array.isArray(v) && v.length === 0),
    ),
  );
}

/** PURE. The Manifest of each module to write: its Manifest's name (by labels, whatever the name) or a new one
 * (chooseManifestName) that neither this Kyma's other Manifests, another module of this call nor `elsewhere` (a
 * Manifest of another Kyma) holds. Sources in module order, so two calls choose alike. */
export function namedManifests(
  kyma: Kyma,
  sources: ModuleSource[],
  existing: Manifest[],
  elsewhere: (name: string) => boolean,
): Manifest[] {
  const held = new Set(existing.map((m) => m.metadata.name));
  const ordered = [...sources].sort((a, b) => a.module.name.localeCompare(b.module.name));
  return ordered.map((src) => {
    const own = ownManifest(existing, src.module.name);
    const name = chooseManifestName(
      kyma.metadata.name,
      src.componentName,
      src.module.name,
      own?.metadata.name,
      (n) => held.has(n) || elsewhere(n),
    );
    held.add(name);
    return desiredManifest(kyma, src, name, syncedRefOf(own, src));
  });
}

/** `sync-oci-ref` (ADR 40): a new raw-manifest Manifest starts with its layer, as upstream's first pass sets it; an
 * existing one keeps what apply-remote recorded (or, made before the guard, none). */
const syncedRefOf = (own: Manifest | undefined, src: ModuleSource): string | undefined =>
  own ? own.metadata.annotations?.[ANNOTATION.syncOciRef] : src.chart ? undefined : src.install.ref;

/** The Manifest of a module among a Kyma's Manifests (by its module-name label; the oldest if there are several). */
export function ownManifest(existing: Manifest[], module: string): Manifest | undefined {
  const candidates = existing.filter((m) => m.metadata.labels?.[LABEL.moduleName] === module);
  return candidates.sort(
    (a, b) =>
      (a.metadata.creationTimestamp ?? '').localeCompare(b.metadata.creationTimestamp ?? '') ||
      a.metadata.name.localeCompare(b.metadata.name),
  )[0];
}

const isMandatory = (m: Manifest) => m.metadata.labels?.[LABEL.mandatoryModule] === 'true';

/** PURE. Manifests of this Kyma whose module is no longer wanted, was refused for it (visibility), or is a mandatory
 * module that no longer exists. Unmanaged Manifests are never deleted this way: they remove themselves. */
export function unwantedManifests(kyma: Kyma, manifests: Manifest[], mandatory: ReadonlySet<string>): Manifest[] {
  const wanted = new Set(effectiveModules(kyma).map((m) => m.name));
  const refused = new Set((kyma.status?.modules ?? []).filter((m) => m.resolution?.notAllowed).map((m) => m.name));
  return manifests.filter((m) => {
    const module = m.metadata.labels?.[LABEL.moduleName] ?? '';
    // Only what render-manifest rendered: a Manifest someone else wrote for this Kyma (e.g. of Helm charts, ADR 22)
    // is theirs to remove.
    if (m.metadata.labels?.[LABEL.managedBy] !== MANAGED_BY_KCP) return false;
    if (m.metadata.deletionTimestamp || isUnmanaged(m)) return false;
    if (isMandatory(m)) return !mandatory.has(module);
    return !wanted.has(module) || refused.has(module);
  });
}

/** PURE. Manifests of modules the Kyma set to `managed: false` that are not yet marked unmanaged. */
export function toUnmanage(kyma: Kyma, manifests: Manifest[]): Manifest[] {
  const unmanaged = new Set(
    effectiveModules(kyma)
      .filter((m) => m.managed === false)
      .map((m) => m.name),
  );
  return manifests.filter(
    (m) =>
      !m.metadata.deletionTimestamp &&
      !isUnmanaged(m) &&
      !isMandatory(m) &&
      unmanaged.has(m.metadata.labels?.[LABEL.moduleName] ?? ''),
  );
}

/** PURE. Modules that should have a Manifest written now: resolved (or kept on a warning) with a template. */
export function renderable(kyma: Kyma): { module: KymaModule; entry: ModuleStatus }[] {
  return effectiveModules(kyma).flatMap((module) => {
    const entry = kyma.status?.modules?.find((m) => m.name === module.name);
    const usable =
      entry?.template && entry.ocmComponentName && !entry.resolution?.notAllowed && module.managed !== false;
    return usable ? [{ module, entry }] : [];
  });
}

/** What render-manifest saw of a resolved Kyma: its Manifests, the Manifest each wanted module should have (named),
 * and the mandatory modules that still exist. */
export interface RenderView {
  kyma: Kyma;
  existing: Manifest[];
  wanted: Manifest[];
  mandatory: ReadonlySet<string>;
}

export type RenderStep =
  | { step: 'Ignore'; why: 'gone' | 'deleting' | 'skip-reconciliation' | 'not resolved yet' }
  | { step: 'WriteManifest'; manifest: Manifest; stored: Manifest | undefined }
  | { step: 'MarkUnmanaged'; name: string }
  | { step: 'DeleteManifest'; name: string };

/** PURE. Why a Kyma's Manifests are left as they are: gone, being deleted (purge's), skipping reconciliation, or not
 * resolved yet (nothing is known to be wanted or not). */
export function ignoreReason(kyma: Kyma | undefined): Extract<RenderStep, { step: 'Ignore' }> | undefined {
  if (!kyma) return { step: 'Ignore', why: 'gone' };
  if (kyma.metadata.deletionTimestamp) return { step: 'Ignore', why: 'deleting' };
  if (kyma.metadata.labels?.[LABEL.skipReconciliation] === 'true')
    return { step: 'Ignore', why: 'skip-reconciliation' };
  return kyma.status?.specSource ? undefined : { step: 'Ignore', why: 'not resolved yet' };
}

/** PURE. The steps of a call, in order: each wanted Manifest that differs written (module order), then Manifests of
 * modules set to `managed: false` marked unmanaged, then Manifests no longer wanted (or refused) deleted. */
export function renderSteps(view: RenderView): RenderStep[] {
  const stored = (name: string) => view.existing.find((m) => m.metadata.name === name);
  return [
    ...view.wanted
      .filter((m) => needsWrite(stored(m.metadata.name), m))
      .map((manifest) => ({ step: 'WriteManifest' as const, manifest, stored: stored(manifest.metadata.name) })),
    ...toUnmanage(view.kyma, view.existing).map((m) => ({ step: 'MarkUnmanaged' as const, name: m.metadata.name })),
    ...unwantedManifests(view.kyma, view.existing, view.mandatory).map((m) => ({
      step: 'DeleteManifest' as const,
      name: m.metadata.name,
    })),
  ];
}
