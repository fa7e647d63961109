import { effectiveModules, type Kyma } from '../../shared/core/kyma.ts';
import type { Manifest } from '../../shared/core/manifest.ts';
import { templateName, type ModuleReleaseMeta, type ModuleTemplate } from '../../shared/core/templates.ts';
import { ANNOTATION, API_VERSION, LABEL } from '../../shared/core/vocabulary.ts';
import type { FunctionDeps } from '../../shared/host/deps.ts';
import { installSources, type ModuleSource } from '../../shared/core/desired-manifest.ts';

/** Modules removed from the spec whose Manifest is still being deleted keep following their channel, so the operator
 * that must finalize the blocking CRs is upgraded too (ADR 8; upstream "ModuleReleaseMeta upgrade under deletion"). */
export async function removedModuleSources(
  deps: FunctionDeps,
  kyma: Kyma,
  manifests: Manifest[],
): Promise<ModuleSource[]> {
  const inSpec = new Set(effectiveModules(kyma).map((m) => m.name));
  const removing = manifests.filter(
    (m) =>
      m.metadata.deletionTimestamp &&
      !inSpec.has(m.metadata.labels?.[LABEL.moduleName] ?? '') &&
      m.metadata.labels?.[LABEL.mandatoryModule] !== 'true' &&
      m.metadata.annotations?.[ANNOTATION.isUnmanaged] !== 'true',
  );
  const found = await Promise.all(removing.map((m) => follow(deps, m)));
  return found.flat();
}

async function follow(deps: FunctionDeps, manifest: Manifest): Promise<ModuleSource[]> {
  const name = manifest.metadata.labels?.[LABEL.moduleName] ?? '';
  const channel = manifest.metadata.labels?.[LABEL.channel] ?? '';
  const namespace = manifest.metadata.namespace ?? '';
  const mrm = await deps.kcp.get<ModuleReleaseMeta>({
    apiVersion: API_VERSION,
    kind: 'ModuleReleaseMeta',
    namespace,
    name,
  });
  const version = mrm?.spec?.channels?.find((c) => c.channel === channel)?.version;
  if (!mrm?.spec || !version || version === manifest.spec?.version) return [];
  const template = await deps.kcp.get<ModuleTemplate>({
    apiVersion: API_VERSION,
    kind: 'ModuleTemplate',
    namespace,
    name: templateName(name, version),
  });
  const lookup = template ? await deps.artifacts.lookup(mrm.spec.ocmComponentName, version, template) : undefined;
  if (!template || !lookup || 'error' in lookup) return [];
  const { artifact } = lookup;
  return [
    {
      module: { name, customResourcePolicy: manifest.spec?.customResourcePolicy ?? 'CreateAndDelete' },
      entry: { name, channel },
      template,
      componentName: mrm.spec.ocmComponentName,
      version: artifact.version,
      localizedImages: artifact.localizedImages,
      ...installSources(deps.registry.host, mrm.spec.ocmComponentName, artifact.install),
    },
  ];
}
