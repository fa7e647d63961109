import { describe, expect, it } from 'vitest';
import { aKyma, aTemplate } from '../../../test/builders.ts';
import type { ArtifactLookup } from '../../../shared/core/descriptors.ts';
import type { Kyma, ModuleStatus } from '../../../shared/core/kyma.ts';
import type { ModuleReleaseMeta, ModuleTemplate, ModuleTemplateSpec } from '../../../shared/core/templates.ts';
import { LABEL } from '../../../shared/core/vocabulary.ts';
import { changedCatalog, withChannels, type Catalog } from './change.ts';
import { planModules } from './classify.ts';
import { asResolved, resolve, type Surroundings } from './resolution.ts';

const COMPONENT = 'kyma-project.io/module/sample';
const template = (
  version: string,
  labels: Record<string, string> = {},
  extra: ModuleTemplateSpec = {},
): ModuleTemplate => aTemplate({ version, generation: 1, labels, spec: extra });
const meta = (
  channels: { channel: string; version: string }[],
  kymaSelector?: NonNullable<ModuleReleaseMeta['spec']>['kymaSelector'],
): ModuleReleaseMeta => ({
  apiVersion: '',
  kind: 'ModuleReleaseMeta',
  metadata: { name: 'sample' },
  spec: { moduleName: 'sample', ocmComponentName: COMPONENT, channels, ...(kymaSelector ? { kymaSelector } : {}) },
});
const artifact = (version: string): [string, ArtifactLookup] => [
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
const catalog: Catalog = {
  releaseMetas: [
    meta([
      { channel: 'regular', version: '1.0.0' },
      { channel: 'fast', version: '2.0.0' },
    ]),
  ],
  templates: [
    template('0.9.0'),
    template('1.0.0'),
    template('2.0.0'),
    template('3.0.0', {}, { requiresDowntime: true }),
  ],
};
const around: Surroundings = { artifacts: new Map(['0.9.0', '1.0.0', '2.0.0', '3.0.0'].map(artifact)) };
/** A Kyma on `channel` with `installed` of the module Ready (as aggregate-status records it). */
const kymaOn = (channel: string, installed: string, labels: Record<string, string> = {}): Kyma => {
  const k: Kyma = aKyma({ channel, labels, modules: ['sample'] });
  const [entry] = resolve(k, { ...catalog, releaseMetas: [meta([{ channel, version: installed }])] }, around) as [
    ModuleStatus,
  ];
  return { ...k, status: { modules: [{ ...entry, version: installed, state: 'Ready' }] } };
};
const planOf = (kyma: Kyma, after: Catalog, surroundings = around) =>
  planModules(kyma, resolve(kyma, catalog, surroundings), resolve(kyma, after, surroundings));
const bump = (channel: string, version: string) =>
  changedCatalog(catalog, {
    kind: 'ModuleReleaseMeta',
    releaseMeta: withChannels(catalog, 'sample', [{ channel, version }]),
  });

describe("plan: a change sorted by resolve-template's own answers", () => {
  it('an upgrade from → to; Kymas the change does not reach have no row', () => {
    expect(planOf(kymaOn('regular', '1.0.0'), bump('regular', '2.0.0'))).toEqual([
      { module: 'sample', outcome: 'upgrade', from: '1.0.0', to: '2.0.0', message: '', removes: false },
    ]);
    expect(planOf(kymaOn('fast', '2.0.0'), bump('regular', '2.0.0'))).toEqual([]);
  });

  it("a downgrade is refused with upstream's message", () => {
    expect(planOf(kymaOn('regular', '1.0.0'), bump('regular', '0.9.0'))).toEqual([
      {
        module: 'sample',
        outcome: 'refused',
        from: '1.0.0',
        to: '0.9.0',
        removes: false,
        message:
          'ignore channel skew (from regular to regular), as a higher version (1.0.0) of the module was previously installed',
      },
    ]);
  });

  it('a version that requires downtime waits while the window is closed, upgrades while it is open', () => {
    const closed = { ...around, maintenance: () => ({ open: false }) };
    expect(planOf(kymaOn('regular', '1.0.0'), bump('regular', '3.0.0'), closed)).toMatchObject([
      {
        outcome: 'waits',
        from: '1.0.0',
        to: '3.0.0',
        message: 'waiting for next maintenance window to update module version',
      },
    ]);
    expect(
      planOf(kymaOn('regular', '1.0.0'), bump('regular', '3.0.0'), { ...around, maintenance: () => ({ open: true }) }),
    ).toMatchObject([{ outcome: 'upgrade', to: '3.0.0' }]);
  });

  it('a template made internal is refused for Kymas without the label, which removes the module; a labelled Kyma keeps it', () => {
    const internal = changedCatalog(catalog, {
      kind: 'ModuleTemplate',
      template: template('1.0.0', { [LABEL.internal]: 'true' }),
    });
    expect(planOf(kymaOn('regular', '1.0.0'), internal)).toMatchObject([
      {
        outcome: 'refused',
        removes: true,
        message: expect.stringContaining('ModuleTemplate sample-1.0.0 is internal'),
      },
    ]);
    expect(planOf(kymaOn('regular', '1.0.0', { [LABEL.internal]: 'true' }), internal)).toEqual([]);
  });

  it('a restricted module whose new kymaSelector leaves the Kyma out is refused', () => {
    const restricted = { ...around, restrictedModules: ['sample'] };
    const selector = { matchLabels: { tier: 'gold' } };
    const kyma = kymaOn('regular', '1.0.0', { tier: 'gold' });
    const before = resolve(
      kyma,
      { ...catalog, releaseMetas: [meta(catalog.releaseMetas[0]?.spec?.channels ?? [], selector)] },
      restricted,
    );
    const after = resolve(
      kyma,
      {
        ...catalog,
        releaseMetas: [meta(catalog.releaseMetas[0]?.spec?.channels ?? [], { matchLabels: { tier: 'silver' } })],
      },
      restricted,
    );
    expect(planModules(kyma, before, after)).toMatchObject([{ outcome: 'refused', removes: true }]);
  });

  it('a module pinned to a version (ADR 38) does not move with its channel: resolve-template says so, the plan follows', () => {
    const pinned: Kyma = {
      ...kymaOn('regular', '1.0.0'),
      spec: { channel: 'regular', modules: [{ name: 'sample', version: '1.0.0' }] },
    };
    const entry = resolve(pinned, catalog, around)[0];
    expect(entry?.resolution).toMatchObject({ state: 'Resolved', version: '1.0.0', pinned: true });
    expect(planOf(pinned, bump('regular', '2.0.0'))).toEqual([]);
    // A pin added on the runtime Kyma only: taken from the status resolution recorded.
    const fromRuntime: Kyma = {
      ...pinned,
      spec: { channel: 'regular', modules: [] },
      status: {
        specSource: { from: 'runtime', channel: 'regular' },
        modules: [{ ...entry, name: 'sample', version: '1.0.0' }],
      },
    };
    expect(asResolved(fromRuntime).spec?.modules).toEqual([{ name: 'sample', version: '1.0.0' }]);
    expect(planOf(asResolved(fromRuntime), bump('regular', '2.0.0'))).toEqual([]);
  });

  it("the module list and channel resolution last saw: the runtime Kyma's (status), not only the KCP spec", () => {
    const kyma: Kyma = aKyma({
      modules: [],
      status: {
        specSource: { from: 'runtime', channel: 'fast' },
        modules: [{ name: 'sample', channel: 'fast', resolution: { state: 'Resolved', version: '2.0.0' } }],
      },
    });
    expect(asResolved(kyma).spec).toEqual({ channel: 'fast', modules: [{ name: 'sample', channel: 'fast' }] });
  });

  it('a runtime-sourced Kyma: its KCP spec is not what it follows, and an unmanaged module stays unmanaged (no install planned)', () => {
    const kyma: Kyma = aKyma({
      modules: ['other'],
      status: {
        specSource: { from: 'runtime', channel: 'regular' },
        modules: [
          { name: 'sample', channel: 'regular', resolution: { state: 'Resolved', version: '1.0.0', managed: false } },
        ],
      },
    });
    expect(asResolved(kyma).spec?.modules).toEqual([{ name: 'sample', channel: 'regular', managed: false }]);
    const fromKcp: Kyma = { ...kyma, status: { ...kyma.status, specSource: { from: 'kcp', channel: 'regular' } } };
    expect(asResolved(fromKcp)).toBe(fromKcp);
    expect(
      planOf(asResolved(kyma), bump('regular', '2.0.0')),
      'an unmanaged module is not upgraded (resolve-template does not resolve it)',
    ).toEqual([]);
    const managed: Kyma = {
      ...kyma,
      status: {
        ...kyma.status,
        modules: [
          { name: 'sample', channel: 'regular', version: '1.0.0', resolution: { state: 'Resolved', version: '1.0.0' } },
        ],
      },
    };
    expect(planOf(asResolved(managed), bump('regular', '2.0.0'))).toMatchObject([
      { module: 'sample', outcome: 'upgrade', from: '1.0.0', to: '2.0.0' },
    ]);
  });
});
