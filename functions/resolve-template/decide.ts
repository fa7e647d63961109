import type { Kyma, KymaModule, ModuleStatus } from '../../shared/core/kyma.ts';
import type { ArtifactLookup } from '../../shared/core/descriptors.ts';
import { compareCore, coreVersion } from '../../shared/core/semver.ts';
import { templateName, type ModuleReleaseMeta, type ModuleTemplate } from '../../shared/core/templates.ts';
import { API_VERSION, DEFAULT_CHANNEL, LABEL } from '../../shared/core/vocabulary.ts';

/** What resolve-template read for one Kyma: MRMs by module name, templates by name, and (for modules without
 * an MRM) every ModuleTemplate of the namespace. `undefined` means "looked up, not found". */
export interface Observed {
  kyma: Kyma;
  releaseMetas: Map<string, ModuleReleaseMeta | undefined>;
  templates: Map<string, ModuleTemplate | undefined>;
  allTemplates: ModuleTemplate[] | undefined;
  /** Descriptor lookups by `<componentName>:<version>`: the module content, or why it cannot be had. */
  artifacts: Map<string, ArtifactLookup>;
  /** The runtime's maintenance window now: open or not, why it cannot be told, or undefined when windows are off. */
  maintenance?: { open: boolean } | { error: string } | undefined;
  /** Upstream's restricted modules (LIFECYCLE_RESTRICTED_MODULES); absent = none. */
  restrictedModules?: readonly string[];
}

type Lookup = { template: ModuleTemplate; version: string; componentName: string } | { error: string; keepPrevious: boolean };

/** The modules of the Kyma spec, first occurrence wins. */
export function wantedModules(kyma: Kyma): KymaModule[] {
  const seen = new Set<string>();
  return (kyma.spec?.modules ?? []).filter((m) => !seen.has(m.name) && seen.add(m.name));
}

export const desiredChannel = (kyma: Kyma, module: KymaModule) => module.channel || kyma.spec?.channel || DEFAULT_CHANNEL;

/** Version to look up for a module: from its MRM (channel entry or mandatory version), else a channel template. */
export function lookup(observed: Observed, module: KymaModule, channel: string): Lookup {
  const mrm = observed.releaseMetas.get(module.name);
  if (!mrm) return lookupByTemplateChannel(observed, module.name, channel);
  const spec = mrm.spec;
  if (!spec?.ocmComponentName) return { error: `ModuleReleaseMeta ${module.name} has no ocmComponentName`, keepPrevious: false };
  const version = spec.mandatory?.version ?? versionOfChannel(spec.channels, channel);
  if (!version) {
    const error = spec.channels?.length ? `no versions found for channel: ${channel} in module ${module.name}` : `no channels found for module ${module.name}`;
    return { error, keepPrevious: false };
  }
  const name = templateName(module.name, version);
  const template = observed.templates.get(name);
  if (!template) return { error: `ModuleTemplate ${name} not found for module ${module.name} version ${version}`, keepPrevious: false };
  return { template, version, componentName: spec.ocmComponentName };
}

const versionOfChannel = (channels: { channel: string; version: string }[] | undefined, channel: string) =>
  channels?.find((c) => c.channel === channel)?.version;

function lookupByTemplateChannel(observed: Observed, moduleName: string, channel: string): Lookup {
  const candidates = (observed.allTemplates ?? []).filter((t) => moduleOf(t) === moduleName && t.spec?.channel === channel);
  if (candidates.length !== 1) {
    const why = candidates.length === 0 ? `and no ModuleTemplate for channel ${channel}` : `and ${candidates.length} ModuleTemplates claim channel ${channel}`;
    return { error: `no ModuleReleaseMeta found for module ${moduleName} ${why}`, keepPrevious: true };
  }
  const [template] = candidates as [ModuleTemplate];
  const componentName = componentNameOf(template);
  if (!componentName) return { error: `ModuleTemplate ${template.metadata.name} names no OCM component (spec.descriptor.component.name)`, keepPrevious: false };
  return { template, version: template.spec?.version ?? '', componentName };
}

const moduleOf = (t: ModuleTemplate) => t.spec?.moduleName || t.metadata.labels?.[LABEL.moduleName];

function componentNameOf(template: ModuleTemplate): string | undefined {
  const component = (template.spec?.descriptor as { component?: { name?: unknown } } | undefined)?.component;
  return typeof component?.name === 'string' ? component.name : undefined;
}

export { visibilityProblem } from '../../shared/core/visibility.ts';

/** The upstream downgrade guard: a lower major.minor.patch than the installed version is refused. */
export function downgradeProblem(previous: ModuleStatus | undefined, version: string, channel: string): string {
  if (!previous?.template || !previous.version) return '';
  const [from, to] = [coreVersion(previous.version), coreVersion(version)];
  if (from && to && compareCore(to, from) >= 0) return '';
  return `ignore channel skew (from ${previous.channel ?? ''} to ${channel}), as a higher version (${previous.version}) of the module was previously installed`;
}

export const trackingOf = (template: ModuleTemplate) => ({
  apiVersion: API_VERSION, kind: 'ModuleTemplate',
  metadata: { name: template.metadata.name, namespace: template.metadata.namespace ?? '', generation: template.metadata.generation ?? 0 },
});
