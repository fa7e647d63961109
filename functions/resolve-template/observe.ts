import type { KubeClient } from '../../shared/kube/client.ts';
import type { Kyma } from '../../shared/core/kyma.ts';
import { templateName, type ModuleReleaseMeta, type ModuleTemplate } from '../../shared/core/templates.ts';
import { API_VERSION } from '../../shared/core/vocabulary.ts';
import { listAll } from '../../shared/kube/list.ts';
import type { ArtifactLookup } from '../../shared/core/descriptors.ts';
import type { ModuleArtifacts } from '../../shared/oci/module-artifacts.ts';
import { TransientError } from '../../shared/host/errors.ts';
import { desiredChannel, lookup, versionFor, wantedModules, type Observed } from '../../shared/core/resolution.ts';

/** Reads what resolution needs for one Kyma: one MRM GET per module, one template GET per MRM-resolved (or pinned)
 * version, and a list of all templates only when some module has no MRM (the channel-template fallback). */
export async function observe(kcp: KubeClient, artifacts: ModuleArtifacts, kyma: Kyma): Promise<Observed> {
  const namespace = kyma.metadata.namespace ?? '';
  const modules = wantedModules(kyma);
  const releaseMetas = new Map(
    await Promise.all(
      modules.map(
        async (m) =>
          [
            m.name,
            await kcp.get<ModuleReleaseMeta>({
              apiVersion: API_VERSION,
              kind: 'ModuleReleaseMeta',
              namespace,
              name: m.name,
            }),
          ] as const,
      ),
    ),
  );
  const names = modules.flatMap((m) => {
    const spec = releaseMetas.get(m.name)?.spec;
    const version = spec && versionFor(spec, m, desiredChannel(kyma, m));
    return version ? [templateName(m.name, version)] : [];
  });
  const templates = new Map(
    await Promise.all(
      names.map(
        async (name) =>
          [
            name,
            await kcp.get<ModuleTemplate>({ apiVersion: API_VERSION, kind: 'ModuleTemplate', namespace, name }),
          ] as const,
      ),
    ),
  );
  const needsAll = modules.some((m) => !releaseMetas.get(m.name));
  const allTemplates = needsAll
    ? await listAll<ModuleTemplate>(kcp, API_VERSION, 'ModuleTemplate', { namespace })
    : undefined;
  const partial = { kyma, releaseMetas, templates, allTemplates, artifacts: new Map() };
  const found = modules
    .map((m) => lookup(partial, m, desiredChannel(kyma, m)))
    .flatMap((f) => ('error' in f ? [] : [f]));
  const lookups = await Promise.all(
    found.map(
      async (f) =>
        [
          `${f.componentName}:${f.version}`,
          await lookupOrOutage(artifacts, f.componentName, f.version, f.template),
        ] as const,
    ),
  );
  return { ...partial, artifacts: new Map(lookups) };
}

/** A registry that cannot be reached is an answer for the status (the module names it, keeps what it had), not a
 * failed call: the Kyma is not Ready, so the resync tries again every minute. */
async function lookupOrOutage(
  artifacts: ModuleArtifacts,
  componentName: string,
  version: string,
  template: ModuleTemplate,
): Promise<ArtifactLookup> {
  try {
    return await artifacts.lookup(componentName, version, template);
  } catch (error) {
    if (!(error instanceof TransientError)) throw error;
    return { error: error.message, transient: true };
  }
}
