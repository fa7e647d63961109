// The CloudEvents of Knative's ApiServerSource in Resource mode, built from a watched object. Pure.
import { CloudEvent } from 'cloudevents';

export type ResourceChange = 'add' | 'update' | 'delete';

export interface WatchedObject {
  readonly apiVersion?: string;
  readonly kind?: string;
  readonly metadata?: { readonly name?: string; readonly namespace?: string };
}

const EVENT_TYPE: Readonly<Record<ResourceChange, string>> = {
  add: 'dev.knative.apiserver.resource.add',
  update: 'dev.knative.apiserver.resource.update',
  delete: 'dev.knative.apiserver.resource.delete',
};

/** `type`, `source` (the API server URL), `subject` (a fake selfLink), `datacontenttype: application/json`, the object
 * as `data`, and the extensions `kind`, `apiversion`, `name`, `namespace` ('' for cluster-scoped objects); `extensions`
 * (ceOverrides) are added but cannot replace any of these. */
export function apiServerEvent(
  change: ResourceChange,
  source: string,
  object: WatchedObject,
  extensions: Readonly<Record<string, string>> = {},
): CloudEvent<unknown> {
  const apiVersion = object.apiVersion ?? '';
  const kind = object.kind ?? '';
  const name = object.metadata?.name ?? '';
  const namespace = object.metadata?.namespace ?? '';
  return new CloudEvent({
    ...extensions,
    type: EVENT_TYPE[change],
    source,
    subject: selfLink(apiVersion, kind, namespace, name),
    datacontenttype: 'application/json',
    data: object,
    kind,
    apiversion: apiVersion,
    name,
    namespace,
  });
}

/** Knative's fake selfLink: `/apis/<apiVersion>/namespaces/<ns>/<guessed plural>/<name>` — `/apis/v1/…` for the core
 * group, an empty namespace segment for cluster-scoped objects, the plural guessed from the kind. */
export function selfLink(apiVersion: string, kind: string, namespace: string, name: string): string {
  const version = apiVersion.includes('.') && !apiVersion.includes('/') ? `${apiVersion}/versionUnknown` : apiVersion;
  return `/apis/${version}/namespaces/${namespace}/${guessPlural(kind)}/${name}`;
}

/** Kubernetes' `UnsafeGuessKindToResource`: lowercase, then -s → -ses, -y → -ies, else +s ("endpoints" stays). */
export function guessPlural(kind: string): string {
  const singular = kind.toLowerCase();
  if (singular === '' || singular.endsWith('endpoints')) return singular;
  if (singular.endsWith('s')) return `${singular}es`;
  if (singular.endsWith('y')) return `${singular.slice(0, -1)}ies`;
  return `${singular}s`;
}
