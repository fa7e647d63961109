// ApiServerSource objects (`sources.knative.dev/v1`) read from YAML into the resources the local source watches.
import { asList, asRecord, optionalString, requiredString } from './manifest-fields.ts';
import type { WatchedResource } from '../../shared/kube/resource-watch.ts';
import { ofKind, parseManifests, type ManifestDocument } from '../controlplane/object-files.ts';

export type { WatchedResource };

const API_VERSION = 'sources.knative.dev/v1';

export function parseApiServerSources(text: string, file = '<inline>'): WatchedResource[] {
  return apiServerSourcesOf(parseManifests(text, file));
}

/** The resources of every ApiServerSource among `docs`. */
export function apiServerSourcesOf(docs: readonly ManifestDocument[]): WatchedResource[] {
  return ofKind(docs, API_VERSION, 'ApiServerSource').flatMap((doc) => {
    const metadata = asRecord(doc.object.metadata, 'metadata') ?? {};
    try {
      return sourceResources(metadata, asRecord(doc.object.spec, 'spec') ?? {});
    } catch (e) {
      throw new Error(`${doc.file}: ApiServerSource ${String(metadata.name ?? '(unnamed)')}: ${(e as Error).message}`, {
        cause: e,
      });
    }
  });
}

function sourceResources(metadata: Record<string, unknown>, spec: Record<string, unknown>): WatchedResource[] {
  if (spec.mode !== 'Resource')
    throw new Error(
      `spec.mode: the local source supports only Resource mode, got ${JSON.stringify(spec.mode ?? 'Reference (the default)')}`,
    );
  for (const field of ['owner', 'filters'] as const) {
    if (spec[field] !== undefined) throw new Error(`spec.${field}: not supported by the local ApiServerSource`);
  }
  const namespace = watchedNamespace(metadata, asRecord(spec.namespaceSelector, 'spec.namespaceSelector'));
  const extensions = asRecord(
    asRecord(spec.ceOverrides, 'spec.ceOverrides')?.extensions,
    'spec.ceOverrides.extensions',
  );
  const resources = asList(spec.resources, 'spec.resources');
  if (resources.length === 0) throw new Error('spec.resources: at least one resource is required');
  return resources.map((raw, i) => {
    const path = `spec.resources[${i}]`;
    const resource = asRecord(raw, path) ?? {};
    const selector = labelSelectorText(asRecord(resource.selector, `${path}.selector`), `${path}.selector`);
    return {
      apiVersion: requiredString(resource.apiVersion, `${path}.apiVersion`),
      kind: requiredString(resource.kind, `${path}.kind`),
      ...(namespace === undefined ? {} : { namespace }),
      ...(selector ? { labelSelector: selector } : {}),
      ...(extensions ? { extensions: stringMap(extensions, 'spec.ceOverrides.extensions') } : {}),
    };
  });
}

/** Knative: no namespaceSelector = the source's own namespace; `{}` = all namespaces. */
function watchedNamespace(
  metadata: Record<string, unknown>,
  selector: Record<string, unknown> | undefined,
): string | undefined {
  if (selector === undefined) return optionalString(metadata.namespace, 'metadata.namespace') ?? 'default';
  if (Object.keys(selector).length === 0) return undefined;
  throw new Error(
    'spec.namespaceSelector: only {} (all namespaces) or none (the source namespace) is supported locally',
  );
}

/** A metav1.LabelSelector (`matchLabels`, `matchExpressions`) in the query syntax of the API server. */
export function labelSelectorText(selector: Record<string, unknown> | undefined, path = 'selector'): string {
  if (!selector) return '';
  const labels = Object.entries(
    stringMap(asRecord(selector.matchLabels, `${path}.matchLabels`) ?? {}, `${path}.matchLabels`),
  );
  const expressions = asList(selector.matchExpressions, `${path}.matchExpressions`).map((raw, i) =>
    expressionText(asRecord(raw, `${path}.matchExpressions[${i}]`) ?? {}, `${path}.matchExpressions[${i}]`),
  );
  return [...labels.map(([key, value]) => `${key}=${value}`), ...expressions].join(',');
}

function expressionText(expression: Record<string, unknown>, path: string): string {
  const key = requiredString(expression.key, `${path}.key`);
  const values = asList(expression.values, `${path}.values`).map((v, i) => requiredString(v, `${path}.values[${i}]`));
  switch (expression.operator) {
    case 'In':
      return `${key} in (${values.join(',')})`;
    case 'NotIn':
      return `${key} notin (${values.join(',')})`;
    case 'Exists':
      return key;
    case 'DoesNotExist':
      return `!${key}`;
    default:
      throw new Error(`${path}.operator: must be In, NotIn, Exists or DoesNotExist`);
  }
}

function stringMap(map: Record<string, unknown>, path: string): Record<string, string> {
  return Object.fromEntries(
    Object.entries(map).map(([key, value]) => [key, optionalString(value, `${path}.${key}`) ?? '']),
  );
}
