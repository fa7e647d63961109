import type { Manifest } from '../../shared/core/manifest.ts';
import { OWN_RUNTIME, type RuntimeScope } from '../../shared/core/runtime-scope.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { isNotFound } from '../../shared/kube/errors.ts';

interface Cr {
  apiVersion?: string;
  kind?: string;
  metadata: { name: string; namespace?: string; finalizers?: string[]; deletionTimestamp?: string };
}

/** Kinds whose CRs purge must never touch: `<plural>.<group>` or `*.<group>`, matched against the CR's API group. */
export function skipped(skip: readonly string[], plural: string, group: string): boolean {
  return skip.some((s) => s === `${plural}.${group}` || s === `*.${group}`);
}

/** Strips the finalizers of module CRs stuck in deletion on the runtime (ADR 8): only those with a deletionTimestamp,
 * of the kinds of the Kyma's modules' default CRs, never a kind on the skip list, on a shared runtime only the Kyma's
 * (ADR 13). Returns what was force-removed, as `Kind namespace/name [finalizers]`. */
export async function stripStuckFinalizers(
  runtime: KubeClient,
  manifests: Manifest[],
  skip: readonly string[],
  scope: RuntimeScope = OWN_RUNTIME,
): Promise<string[]> {
  const defaultCrs = new Set(
    manifests.map(
      (m) =>
        (m.spec?.resource as { metadata?: { name?: string } } | null | undefined)?.metadata?.name ?? m.metadata.name,
    ),
  );
  const mine = (cr: Cr) =>
    !scope.shared ||
    cr.metadata.namespace === scope.namespace ||
    (!cr.metadata.namespace && defaultCrs.has(cr.metadata.name));
  const kinds = new Map<string, { apiVersion: string; kind: string }>();
  for (const m of manifests) {
    const cr = m.spec?.resource as { apiVersion?: string; kind?: string } | null | undefined;
    if (cr?.apiVersion && cr.kind)
      kinds.set(`${cr.apiVersion}|${cr.kind}`, { apiVersion: cr.apiVersion, kind: cr.kind });
  }
  const removed: string[] = [];
  for (const { apiVersion, kind } of kinds.values()) {
    const resource = await runtime.resource(apiVersion, kind).catch(() => undefined);
    if (!resource || skipped(skip, resource.plural, apiVersion.split('/')[0] ?? '')) continue;
    const items = (await runtime.list<Cr>(apiVersion, kind)).items;
    for (const cr of items.filter((i) => i.metadata.deletionTimestamp && i.metadata.finalizers?.length && mine(i))) {
      const ref = { apiVersion, kind, name: cr.metadata.name, namespace: cr.metadata.namespace };
      await runtime.mergePatch(ref, { metadata: { finalizers: null } }).catch((e: unknown) => {
        if (!isNotFound(e)) throw e;
      });
      removed.push(
        `${kind} ${cr.metadata.namespace ? `${cr.metadata.namespace}/` : ''}${cr.metadata.name} [${cr.metadata.finalizers?.join(', ')}]`,
      );
    }
  }
  return removed;
}
