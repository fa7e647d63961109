// What a plan runs with, for the CLI and the fleet component alike: the KCP and the runtimes read-only (read-only.ts)
// under the plan's user agent, the module registry as the functions reach it, resolve-template's maintenance policy.
import type { Config } from '../../../shared/host/config.ts';
import { registryAccess } from '../../../shared/host/registry-access.ts';
import type { KubeClient } from '../../../shared/kube/client.ts';
import { RuntimeClients } from '../../../shared/kube/runtime-clients.ts';
import { ModuleArtifacts } from '../../../shared/oci/module-artifacts.ts';
import { RegistryClient } from '../../../shared/oci/registry.ts';
import { LayerCache } from '../../../shared/oci/layer.ts';
import { ChartRenderer } from '../../../shared/render/charts.ts';
import { helmBinary } from '../../../shared/render/helm-template.ts';
import { MaintenancePolicyFile } from '../../../shared/host/maintenance-file.ts';
import type { PlanDeps } from './plan.ts';
import { PLAN_USER_AGENT, readOnly } from './read-only.ts';

/** `kcp` is wrapped read-only here; runtime clients get the plan's user agent and are read-only too. */
export async function planDeps(kcp: KubeClient, config: Config, progress: (line: string) => void): Promise<PlanDeps> {
  const reader = readOnly(kcp);
  const access = await registryAccess(reader, config);
  const registry = new RegistryClient(access);
  const runtimes = new RuntimeClients(reader, config.kubeconfigExecCommands, PLAN_USER_AGENT);
  const layers = new LayerCache(registry);
  const charts = new ChartRenderer(layers, helmBinary(config));
  const maintenance = new MaintenancePolicyFile(config.maintenancePolicyPath, config.maintenanceMinWindowMinutes);
  return {
    kcp: reader,
    runtimeOf: async (namespace, kyma) => {
      const found = await runtimes.forKyma(namespace, kyma);
      return 'missing' in found ? found : { client: readOnly(found.client), scope: found.scope };
    },
    artifacts: new ModuleArtifacts(registry, access.allowedHosts),
    // apply-remote's choice (sync.ts): Helm charts when the Manifest has installs, else the raw-manifest layer.
    moduleYaml: (manifest) =>
      manifest.spec?.installs?.length ? charts.moduleYaml(manifest) : layers.rawManifest(manifest),
    registryHost: registry.host,
    pullSecret: config.runtimeImagePullSecret,
    maintenanceOf: (kyma) => maintenance.windowOf(kyma),
    restrictedModules: config.restrictedModules,
    progress,
  };
}
