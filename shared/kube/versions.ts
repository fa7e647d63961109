// What a quiet drift check compares (ADR 93, 95): the objects it would read, by name and resourceVersion, read from
// the watch caches without copies.
import type { Kyma } from '../core/kyma.ts';
import type { Manifest } from '../core/manifest.ts';
import type { ModuleReleaseMeta, ModuleTemplate } from '../core/templates.ts';
import { API_VERSION, LABEL } from '../core/vocabulary.ts';
import type { KubeClient } from './client.ts';

interface Versioned {
  metadata: { name?: string; resourceVersion?: string };
}

/** PURE. name@resourceVersion of each object, sorted: equal when the same objects are at the same versions. */
export const versionsOf = (objects: readonly Versioned[]): string =>
  objects
    .map((o) => `${o.metadata.name ?? ''}@${o.metadata.resourceVersion ?? ''}`)
    .sort()
    .join(',');

/** The versions of a Kyma's Manifests. */
export async function manifestVersions(kcp: KubeClient, kyma: Kyma): Promise<string> {
  const opts = { namespace: kyma.metadata.namespace ?? '', labelSelector: `${LABEL.kymaName}=${kyma.metadata.name}` };
  return versionsOf(await kcp.scan(API_VERSION, 'Manifest', opts, (m: Manifest) => m));
}

/** The versions of a namespace's catalog: its ModuleTemplates, then its ModuleReleaseMetas. */
export async function catalogVersionsIn(kcp: KubeClient, namespace: string): Promise<string> {
  const templates = await kcp.scan(API_VERSION, 'ModuleTemplate', { namespace }, (t: ModuleTemplate) => t);
  const metas = await kcp.scan(API_VERSION, 'ModuleReleaseMeta', { namespace }, (m: ModuleReleaseMeta) => m);
  return `${versionsOf(templates)}|${versionsOf(metas)}`;
}
