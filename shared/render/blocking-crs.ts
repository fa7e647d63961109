// The module CRs that hold a module's removal (apply-remote waits for them; the release plan names them).
import type { Manifest } from '../core/manifest.ts';
import { hasDefaultCr } from '../core/manifest-finalizers.ts';
import { OWN_RUNTIME, type RuntimeScope } from '../core/runtime-scope.ts';
import type { KubeClient } from '../kube/client.ts';
import { isNotFound } from '../kube/errors.ts';
import type { RuntimeObject } from './render.ts';

export interface ListedCr {
  metadata: { name: string; namespace?: string; finalizers?: string[] };
}

/** Custom resources of the default CR's kind (its group and kind, in whatever version the runtime serves it) anywhere
 * on the runtime — on a shared runtime: in the Kyma's runtime namespace — that block removal, as `Kind namespace/name
 * [finalizers]`. CreateAndDelete: all but the default CR; Ignore: all of them. */
export async function blockingCrs(
  runtime: KubeClient,
  manifest: Manifest,
  scope: RuntimeScope = OWN_RUNTIME,
): Promise<string[]> {
  const cr = manifest.spec?.resource as unknown as RuntimeObject | undefined;
  if (!cr?.kind) return [];
  const group = cr.apiVersion.includes('/') ? (cr.apiVersion.split('/')[0] ?? '') : '';
  const served = await runtime.servedVersionOf(group, cr.kind);
  if (!served) return [];
  let items: ListedCr[];
  try {
    items = (await runtime.list<ListedCr>(served, cr.kind)).items;
  } catch (error) {
    if (isNotFound(error)) return [];
    throw error;
  }
  const own = hasDefaultCr(manifest) ? `${cr.metadata.namespace ?? ''}/${cr.metadata.name}` : undefined;
  return items
    .filter((i) => !scope.shared || i.metadata.namespace === scope.namespace)
    .filter((i) => `${i.metadata.namespace ?? ''}/${i.metadata.name}` !== own)
    .map((i) => crText(cr.kind, i));
}

/** "Sample ns/name [finalizers: f]": a module CR as a deletion message names it. */
export const crText = (kind: string, cr: ListedCr) =>
  `${kind} ${cr.metadata.namespace ? `${cr.metadata.namespace}/` : ''}${cr.metadata.name}${cr.metadata.finalizers?.length ? ` [finalizers: ${cr.metadata.finalizers.join(', ')}]` : ''}`;
