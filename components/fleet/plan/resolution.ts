// PURE. Resolution before and after a change, by resolve-template's own rules (resolveModules): the observed state
// is built from the catalog in memory — the same maps observe.ts fills with GETs — so a plan over thousands of
// Kymas reads each ModuleReleaseMeta and ModuleTemplate once, not once per Kyma.
import type { ArtifactLookup } from '../../../shared/core/descriptors.ts';
import { effectiveModules, type Kyma, type ModuleStatus } from '../../../shared/core/kyma.ts';
import type { ModuleTemplate } from '../../../shared/core/templates.ts';
import { desiredChannel, lookup, wantedModules, type Observed } from '../../../shared/core/resolution.ts';
import { resolveModules } from '../../../shared/core/resolve-modules.ts';
import type { Catalog } from './change.ts';

/** What resolution sees besides the catalog: descriptor lookups, the window, the restricted modules. */
export interface Surroundings {
  artifacts: Map<string, ArtifactLookup>;
  maintenance?: (kyma: Kyma) => Observed['maintenance'];
  restrictedModules?: readonly string[];
}

/** The Kyma as resolution saw it last: where resolve-template took the spec from the runtime Kyma (status.specSource),
 * its channel and the module list it recorded in status.modules (a pinned entry's version, ADR 38; `managed: false`;
 * the CR policy) — the KCP spec is not what that Kyma follows; else the KCP spec. */
export function asResolved(kyma: Kyma): Kyma {
  const source = kyma.status?.specSource;
  if (source?.from !== 'runtime') return kyma;
  return {
    ...kyma,
    spec: { ...kyma.spec, channel: source.channel || kyma.spec?.channel || '', modules: effectiveModules(kyma) },
  };
}

/** The observed state of one Kyma against a catalog (resolve-template's Observed). */
export function observedOf(kyma: Kyma, catalog: Catalog, around: Surroundings): Observed {
  return {
    kyma,
    ...indexed(catalog),
    allTemplates: catalog.templates,
    artifacts: around.artifacts,
    maintenance: around.maintenance?.(kyma),
    restrictedModules: around.restrictedModules ?? [],
  };
}

const indexes = new WeakMap<Catalog, Pick<Observed, 'releaseMetas' | 'templates'>>();

/** The catalog's objects by name, as observe.ts GETs them (an MRM is named after its module), once per catalog. */
function indexed(catalog: Catalog): Pick<Observed, 'releaseMetas' | 'templates'> {
  let index = indexes.get(catalog);
  if (!index) {
    index = {
      releaseMetas: new Map(catalog.releaseMetas.map((m) => [m.metadata.name, m])),
      templates: new Map(catalog.templates.map((t) => [t.metadata.name, t])),
    };
    indexes.set(catalog, index);
  }
  return index;
}

/** resolve-template's answer for the Kyma against the catalog. */
export function resolve(kyma: Kyma, catalog: Catalog, around: Surroundings): ModuleStatus[] {
  return resolveModules(observedOf(kyma, catalog, around));
}

/** The descriptor lookups (`component:version`) resolution will ask for, so they can be read before resolving. */
export function neededArtifacts(
  kyma: Kyma,
  catalog: Catalog,
): { componentName: string; version: string; template: ModuleTemplate }[] {
  const observed = observedOf(kyma, catalog, { artifacts: new Map() });
  return wantedModules(kyma).flatMap((m) => {
    const found = lookup(observed, m, desiredChannel(kyma, m));
    return 'error' in found
      ? []
      : [{ componentName: found.componentName, version: found.version, template: found.template }];
  });
}
