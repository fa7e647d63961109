// The Kyma, ModuleReleaseMeta, templates and descriptors the tests of shared/core/resolve-modules.ts resolve from.
import type { Kyma, ModuleStatus } from '../shared/core/kyma.ts';
import type { ArtifactLookup } from '../shared/core/descriptors.ts';
import type { ModuleReleaseMeta, ModuleTemplate } from '../shared/core/templates.ts';
import { aKyma, aTemplate } from './builders.ts';
import type { Observed } from '../shared/core/resolution.ts';

export const COMPONENT = 'kyma-project.io/module/sample';
export const kyma = (
  spec: NonNullable<Kyma['spec']>,
  labels: Record<string, string> = {},
  modules: ModuleStatus[] = [],
): Kyma => ({ ...aKyma({ labels, status: { modules } }), spec });
export const mrm = (channels: { channel: string; version: string }[]): ModuleReleaseMeta => ({
  apiVersion: '',
  kind: 'ModuleReleaseMeta',
  metadata: { name: 'sample' },
  spec: { moduleName: 'sample', ocmComponentName: COMPONENT, channels },
});
export const template = (
  version: string,
  labels: Record<string, string> = {},
  extra: Record<string, unknown> = {},
): ModuleTemplate => aTemplate({ version, labels, generation: 3, spec: extra });
export const artifact = (version: string): [string, ArtifactLookup] => [
  `${COMPONENT}:${version}`,
  {
    artifact: {
      componentName: COMPONENT,
      version,
      install: { name: 'raw-manifest', type: 'oci-dir', ref: 'sha256:aa', componentName: COMPONENT },
      layers: [],
      localizedImages: [],
      registryHost: undefined,
    },
  },
];

export function observed(
  k: Kyma,
  opts: {
    mrm?: ModuleReleaseMeta;
    templates?: ModuleTemplate[];
    all?: ModuleTemplate[];
    artifacts?: [string, ArtifactLookup][];
  } = {},
): Observed {
  return {
    kyma: k,
    releaseMetas: new Map([['sample', opts.mrm]]),
    templates: new Map((opts.templates ?? []).map((t) => [t.metadata.name, t])),
    allTemplates: opts.all,
    artifacts: new Map(opts.artifacts ?? []),
  };
}

export const CHANNELS = [
  { channel: 'regular', version: '1.0.0' },
  { channel: 'fast', version: '2.0.0' },
  { channel: 'old', version: '0.9.0' },
];
