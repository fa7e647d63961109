import type { Manifest } from '../../shared/core/manifest.ts';
import type { ModuleReleaseMeta } from '../../shared/core/templates.ts';
import { API_VERSION, FINALIZER, LABEL } from '../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { listAll } from '../../shared/kube/list.ts';
import { NotYetReadyError } from '../../shared/host/errors.ts';
import type { ObjectKey } from '../../shared/host/events.ts';
import type { Logger } from '../../shared/host/logger.ts';

/** A mandatory ModuleReleaseMeta keeps finalizer operator.kyma-project.io/mandatory-module; once it is deleted, its
 * Manifests on every Kyma are deleted, then the finalizer goes. True while the MRM is being deleted (nothing to fan
 * out), false otherwise. */
export async function mandatoryRelease(kcp: KubeClient, key: ObjectKey, log: Logger): Promise<boolean> {
  const mrm = await kcp.get<ModuleReleaseMeta>({
    apiVersion: API_VERSION,
    kind: 'ModuleReleaseMeta',
    namespace: key.namespace,
    name: key.name,
  });
  if (!mrm?.spec?.mandatory) return false;
  const ref = { apiVersion: API_VERSION, kind: 'ModuleReleaseMeta', namespace: key.namespace, name: key.name };
  const finalizers = mrm.metadata.finalizers ?? [];
  if (!mrm.metadata.deletionTimestamp) {
    if (!finalizers.includes(FINALIZER.mandatory)) {
      await kcp.mergePatch(ref, {
        metadata: { finalizers: [...finalizers, FINALIZER.mandatory], resourceVersion: mrm.metadata.resourceVersion },
      });
    }
    return false;
  }
  const manifests = await listAll<Manifest>(kcp, API_VERSION, 'Manifest', {
    namespace: key.namespace,
    labelSelector: `${LABEL.moduleName}=${key.name},${LABEL.mandatoryModule}=true`,
  });
  for (const m of manifests.filter((x) => !x.metadata.deletionTimestamp))
    await kcp.delete({ apiVersion: API_VERSION, kind: 'Manifest', namespace: key.namespace, name: m.metadata.name });
  if (manifests.length)
    throw new NotYetReadyError(
      `mandatory module ${key.name} removed: waiting for ${manifests.length} Manifests to be deleted`,
    );
  if (finalizers.includes(FINALIZER.mandatory)) {
    await kcp.mergePatch(ref, {
      metadata: {
        finalizers: finalizers.filter((f) => f !== FINALIZER.mandatory),
        resourceVersion: mrm.metadata.resourceVersion,
      },
    });
    log.info({ module: key.name }, 'mandatory module removed from every Kyma');
  }
  return true;
}
