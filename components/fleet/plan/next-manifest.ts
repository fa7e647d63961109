// The Manifest render-manifest would write for a module after the change: its own desiredManifest, from the entry
// resolution would record, the template it names and the descriptor (as render-manifest's sources() puts them together).
import type { ArtifactLookup } from '../../../shared/core/descriptors.ts';
import type { Kyma, ModuleStatus } from '../../../shared/core/kyma.ts';
import type { Manifest } from '../../../shared/core/manifest.ts';
import { wantedModules } from '../../../shared/core/resolution.ts';
import { desiredManifest, installSources } from '../../../shared/core/desired-manifest.ts';
import { chooseManifestName } from '../../../shared/core/names.ts';
import type { Catalog } from './change.ts';

export function nextManifest(
  kyma: Kyma,
  entry: ModuleStatus,
  catalog: Catalog,
  artifacts: ReadonlyMap<string, ArtifactLookup>,
  registryHost: string,
  current?: Manifest,
): Manifest | { error: string } {
  const module = wantedModules(kyma).find((m) => m.name === entry.name);
  const template = catalog.templates.find((t) => t.metadata.name === entry.template?.metadata.name);
  const componentName = entry.ocmComponentName ?? '';
  const lookup = artifacts.get(`${componentName}:${entry.resolution?.version ?? ''}`);
  if (!module || !template)
    return { error: `module ${entry.name}: no template ${entry.template?.metadata.name ?? ''} to render` };
  if (!lookup || 'error' in lookup) return { error: lookup?.error ?? `descriptor of ${componentName} not read` };
  const { artifact } = lookup;
  // The module's Manifest keeps its name (ADR 40); a new one gets upstream's (a plan does not see names held elsewhere).
  const name = chooseManifestName(kyma.metadata.name, componentName, module.name, current?.metadata.name, () => false);
  return desiredManifest(
    kyma,
    {
      module,
      entry,
      template,
      componentName,
      version: artifact.version,
      ...installSources(registryHost, componentName, artifact.install),
      localizedImages: artifact.localizedImages,
    },
    name,
  );
}
