import type { Kyma } from '../../shared/core/kyma.ts';
import { templateName, type ModuleReleaseMeta, type ModuleTemplate } from '../../shared/core/templates.ts';
import { API_VERSION } from '../../shared/core/vocabulary.ts';
import { listAll } from '../../shared/kube/list.ts';
import type { FunctionDeps } from '../../shared/host/deps.ts';
import { installSources, type ModuleSource } from '../../shared/core/desired-manifest.ts';

/** Every mandatory module (ModuleReleaseMeta with spec.mandatory, not being deleted) for one Kyma: template
 * `<module>-<mandatory.version>`, policy CreateAndDelete, no channel. Modules whose template or descriptor is
 * missing are left out (their Manifests stay as they are). */
export async function mandatorySources(deps: FunctionDeps, kyma: Kyma): Promise<ModuleSource[]> {
  const namespace = kyma.metadata.namespace ?? '';
  const metas = (await listAll<ModuleReleaseMeta>(deps.kcp, API_VERSION, 'ModuleReleaseMeta', { namespace })).filter(
    (m) => m.spec?.mandatory?.version && !m.metadata.deletionTimestamp,
  );
  const found = await Promise.all(
    metas.map(async (mrm) => {
      const name = mrm.metadata.name;
      const template = await deps.kcp.get<ModuleTemplate>({
        apiVersion: API_VERSION,
        kind: 'ModuleTemplate',
        namespace,
        name: templateName(name, mrm.spec?.mandatory?.version ?? ''),
      });
      const componentName = mrm.spec?.ocmComponentName ?? '';
      const lookup = template
        ? await deps.artifacts.lookup(componentName, template.spec?.version ?? '', template)
        : undefined;
      if (!template || !lookup || 'error' in lookup) return [];
      const { artifact } = lookup;
      return [
        {
          module: { name, customResourcePolicy: 'CreateAndDelete' as const },
          entry: { name },
          template,
          componentName,
          version: artifact.version,
          ...installSources(deps.registry.host, componentName, artifact.install),
          localizedImages: artifact.localizedImages,
          mandatory: true,
        },
      ];
    }),
  );
  return found.flat();
}
