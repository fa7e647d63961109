import { parse, stringify } from 'yaml';
import { scopeFromCrds, type RuntimeObject } from '../../../shared/render/render.ts';
import { templateName, type ModuleReleaseMeta, type ModuleTemplate } from '../../../shared/core/templates.ts';
import { ANNOTATION, API_VERSION, LABEL } from '../../../shared/core/vocabulary.ts';
import type { ModulePackage } from '../package.ts';
import type { PackageRequest } from './args.ts';
import type { DefaultCr } from './inputs.ts';
import { joinManifests } from './inputs.ts';

/** What the published module version is made of, as the printed objects describe it. */
export interface PublishedModule {
  request: PackageRequest;
  pkg: ModulePackage;
  objects: RuntimeObject[];
  defaultCr: DefaultCr | undefined;
}

/**
 * PURE. The ModuleTemplate `<module>-<version>`, as publish.ts and modulectl write it: module-name label,
 * beta/internal visibility labels, the default CR as `spec.data` (annotated cluster-scoped when the manifest's CRD
 * for it is), and the OCM descriptor as `spec.descriptor` (the fallback when the registry has none).
 */
export function moduleTemplate({ request, pkg, objects, defaultCr }: PublishedModule): ModuleTemplate {
  const labels: Record<string, string> = { [LABEL.moduleName]: request.name };
  if (request.beta) labels[LABEL.beta] = 'true';
  if (request.internal) labels[LABEL.internal] = 'true';
  const clusterScoped =
    defaultCr !== undefined && scopeFromCrds(objects)(defaultCr.apiVersion, defaultCr.kind) === false;
  return {
    apiVersion: API_VERSION,
    kind: 'ModuleTemplate',
    metadata: {
      name: templateName(request.name, request.version),
      namespace: request.namespace,
      labels,
      ...(clusterScoped ? { annotations: { [ANNOTATION.isClusterScoped]: 'true' } } : {}),
    },
    spec: {
      moduleName: request.name,
      version: request.version,
      ...(defaultCr ? { data: defaultCr } : {}),
      ...(request.requiresDowntime ? { requiresDowntime: true } : {}),
      descriptor: parse(pkg.descriptorYaml) as Record<string, unknown>,
    },
  };
}

/** PURE. The ModuleReleaseMeta named after the module: which version each requested channel gets. */
export function releaseMeta(request: PackageRequest): ModuleReleaseMeta {
  return {
    apiVersion: API_VERSION,
    kind: 'ModuleReleaseMeta',
    metadata: { name: request.name, namespace: request.namespace },
    spec: { moduleName: request.name, ocmComponentName: request.componentName, channels: request.channels },
  };
}

/** PURE. The ModuleTemplate and the ModuleReleaseMeta as one multi-document YAML, ready for `kubectl apply -f -`. */
export function publishedYaml(module: PublishedModule): string {
  return joinManifests([moduleTemplate(module), releaseMeta(module.request)].map((o) => stringify(o)));
}
