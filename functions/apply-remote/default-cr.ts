import type { Manifest } from '../../shared/core/manifest.ts';
import { FIELD_MANAGER } from '../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { isConflict, isNotFound, isRefusedWhileTerminating } from '../../shared/kube/errors.ts';
import { NotYetReadyError } from '../../shared/host/errors.ts';
import type { RuntimeObject } from '../../shared/render/render.ts';
import { CONDITION } from './status.ts';
import { hasDefaultCr } from '../../shared/core/manifest-finalizers.ts';

/** CreateAndDelete with a default CR: created on the runtime once, never updated (as upstream). Returns the ModuleCR
 * condition message once it exists, '' when the module has no default CR, and what it waits for while its CRD is being
 * deleted (an earlier removal of the module): the next try applies the CRD again, then the CR. */
export async function ensureDefaultCr(runtime: KubeClient, manifest: Manifest): Promise<string | { waiting: string }> {
  if (!hasDefaultCr(manifest)) return '';
  const done = manifest.status?.conditions?.find((c) => c.type === CONDITION.moduleCr.type && c.status === 'True');
  if (done) return done.message;
  const cr = manifest.spec?.resource as unknown as RuntimeObject;
  const what = `${cr.kind} ${cr.metadata.namespace ? `${cr.metadata.namespace}/` : ''}${cr.metadata.name}`;
  try {
    await runtime.create(cr, false, FIELD_MANAGER.defaultCr);
  } catch (error) {
    if (isNotFound(error))
      throw new NotYetReadyError(
        `the runtime does not serve ${cr.apiVersion} ${cr.kind} yet (default CR)`,
        'manifest_sync_resources_enqueue_required',
      );
    if (isRefusedWhileTerminating(error))
      return {
        waiting: `the CRD of ${cr.kind} is being deleted: default CR ${what} is created once the CRD is gone and applied again`,
      };
    if (!isConflict(error)) throw error;
  }
  return `default CR ${what} created`;
}
