// PURE. Image transforms of rendering (upstream §4.4 d/e): localized images and the runtime image pull Secret.
import type { ManagerRef } from '../core/objects.ts';
import type { RuntimeObject } from './render.ts';

interface Container {
  name?: string;
  image?: string;
  env?: { name: string; value?: string }[];
}
interface PodSpec {
  containers?: Container[];
  initContainers?: Container[];
  imagePullSecrets?: { name: string }[];
}
type Workload = RuntimeObject & { spec?: { template?: { spec?: PodSpec } } };

export const PULL_SECRET_ENV = 'SKR_IMG_PULL_SECRET';
const WORKLOADS = new Set(['apps/v1|Deployment', 'apps/v1|StatefulSet']);
const isWorkload = (o: RuntimeObject): o is Workload => WORKLOADS.has(`${o.apiVersion}|${o.kind}`);
const podOf = (o: Workload): PodSpec | undefined => o.spec?.template?.spec;
const containersOf = (pod: PodSpec | undefined) => [...(pod?.containers ?? []), ...(pod?.initContainers ?? [])];

/** `<last path segment>:<tag>` of an image reference (digest ignored), or undefined when it has no tag. */
export function imageKey(reference: string): string | undefined {
  const withoutDigest = reference.split('@')[0] ?? '';
  const last = withoutDigest.slice(withoutDigest.lastIndexOf('/') + 1);
  return /^[\w.-]+:[\w.-]+$/.test(last) ? last : undefined;
}

/** Every container image, and every env value that is an image reference, whose name:tag equals a localized
 * image's is replaced by that full reference (with its registry and digest). */
export function localizeImages(objects: RuntimeObject[], localizedImages: readonly string[]): RuntimeObject[] {
  const byKey = new Map(
    localizedImages.flatMap((ref) => {
      const key = imageKey(ref);
      return key ? [[key, ref] as const] : [];
    }),
  );
  if (byKey.size === 0) return objects;
  const localized = (value: string | undefined) =>
    value && value.includes(':') ? byKey.get(imageKey(value) ?? '') : undefined;
  return objects.map((object) => {
    if (!isWorkload(object)) return object;
    const copy = structuredClone(object);
    for (const container of containersOf(podOf(copy))) {
      const image = localized(container.image);
      if (image) container.image = image;
      for (const env of container.env ?? []) {
        const value = localized(env.value);
        if (value) env.value = value;
      }
    }
    return copy;
  });
}

/** Every Deployment/StatefulSet pulls with the Secret; the module's manager (all workloads when the template names
 * none) gets env SKR_IMG_PULL_SECRET. A manager that already sets that variable is an error. */
export function withPullSecret(
  objects: RuntimeObject[],
  secret: string,
  manager: ManagerRef | undefined,
): RuntimeObject[] | { error: string } {
  const isManager = (o: RuntimeObject) =>
    !manager ||
    (o.kind === manager.kind &&
      o.metadata.name === manager.name &&
      (!manager.namespace || o.metadata.namespace === manager.namespace));
  const out: RuntimeObject[] = [];
  for (const object of objects) {
    if (!isWorkload(object)) {
      out.push(object);
      continue;
    }
    const copy = structuredClone(object);
    const pod = podOf(copy) ?? {};
    if (!pod.imagePullSecrets?.some((s) => s.name === secret))
      pod.imagePullSecrets = [...(pod.imagePullSecrets ?? []), { name: secret }];
    if (isManager(copy)) {
      for (const container of pod.containers ?? []) {
        if (container.env?.some((e) => e.name === PULL_SECRET_ENV))
          return { error: `${copy.kind} ${copy.metadata.name} already sets ${PULL_SECRET_ENV}` };
        container.env = [...(container.env ?? []), { name: PULL_SECRET_ENV, value: secret }];
      }
    }
    copy.spec = { ...copy.spec, template: { ...copy.spec?.template, spec: pod } };
    out.push(copy);
  }
  return out;
}
