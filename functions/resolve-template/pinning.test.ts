// Version pinning and the explicit downgrade (ADR 38): PURE decisions of resolveModules and downgrade.ts.
import { describe, expect, it } from 'vitest';
import { aKyma, aTemplate } from '../../test/builders.ts';
import { effectiveModules, type Kyma, type KymaModule, type ModuleStatus } from '../../shared/core/kyma.ts';
import type { ArtifactLookup } from '../../shared/core/descriptors.ts';
import type { ModuleReleaseMeta, ModuleTemplate } from '../../shared/core/templates.ts';
import { resolveModules, sameResolution } from '../../shared/core/resolve-modules.ts';
import { downgradeEvent, startedDowngrades } from '../../shared/core/downgrade.ts';
import type { Observed } from '../../shared/core/resolution.ts';
import { usesChange } from './fan-out.ts';

const COMPONENT = 'kyma-project.io/module/sample';
const CHANNELS = [
  { channel: 'regular', version: '2.0.0' },
  { channel: 'fast', version: '3.0.0' },
];
const VERSIONS = ['1.0.0', '1.5.0', '2.0.0', '3.0.0'];
const ref = (version: string) => ({
  apiVersion: 'operator.kyma-project.io/v1beta2',
  kind: 'ModuleTemplate',
  metadata: { name: `sample-${version}`, namespace: 'kcp-system', generation: 1 },
});
const installedAt = (version: string, channel = 'regular'): ModuleStatus => ({
  name: 'sample',
  channel,
  version,
  state: 'Ready',
  template: ref(version),
  ocmComponentName: COMPONENT,
  fqdn: COMPONENT,
  resolution: { state: 'Resolved', version },
});
const template = (version: string): ModuleTemplate =>
  aTemplate({ version, generation: 1, spec: { descriptor: { component: { name: COMPONENT } } } });
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
const mrm: ModuleReleaseMeta = {
  apiVersion: '',
  kind: 'ModuleReleaseMeta',
  metadata: { name: 'sample' },
  spec: { moduleName: 'sample', ocmComponentName: COMPONENT, channels: CHANNELS },
};

function kymaWith(module: KymaModule, installed: ModuleStatus[] = []): Kyma {
  return aKyma({ modules: [module], status: { modules: installed } });
}

/** The catalog: an MRM (regular → 2.0.0, fast → 3.0.0) and templates of `versions` (1.0.0 and 1.5.0 in no channel). */
function observed(kyma: Kyma, opts: { withMrm?: boolean; versions?: string[] } = {}): Observed {
  const versions = opts.versions ?? VERSIONS;
  return {
    kyma,
    releaseMetas: new Map([['sample', opts.withMrm === false ? undefined : mrm]]),
    templates: new Map(versions.map((v) => [`sample-${v}`, template(v)])),
    allTemplates: opts.withMrm === false ? versions.map(template) : undefined,
    artifacts: new Map(versions.map(artifact)),
  };
}
const resolveOne = (
  module: KymaModule,
  installed: ModuleStatus[] = [],
  opts: { withMrm?: boolean; versions?: string[] } = {},
) => resolveModules(observed(kymaWith(module, installed), opts))[0];

describe('pinning a module version', () => {
  it('uses the template of the pinned version, in no channel, and shows the pin in the status entry', () => {
    expect(resolveOne({ name: 'sample', version: '1.0.0' })).toEqual({
      name: 'sample',
      channel: 'none',
      ocmComponentName: COMPONENT,
      fqdn: COMPONENT,
      template: ref('1.0.0'),
      resolution: { state: 'Resolved', version: '1.0.0', pinned: true },
    });
  });

  it('does not move with the channel: the pinned version stays while the channel points higher', () => {
    const pinned = resolveOne({ name: 'sample', version: '2.0.0' }, [installedAt('2.0.0')]);
    expect(pinned).toMatchObject({
      channel: 'none',
      template: ref('2.0.0'),
      resolution: { state: 'Resolved', version: '2.0.0', pinned: true },
    });
    const moved = resolveModules({
      ...observed(kymaWith({ name: 'sample', version: '2.0.0' }, [installedAt('2.0.0')])),
      releaseMetas: new Map([
        [
          'sample',
          { ...mrm, spec: { ...mrm.spec, channels: [{ channel: 'regular', version: '3.0.0' }] } } as ModuleReleaseMeta,
        ],
      ]),
    })[0];
    expect(moved?.template).toEqual(ref('2.0.0'));
  });

  it('follows the channel again once unpinned (an upgrade from the pinned version)', () => {
    const unpinned = resolveOne({ name: 'sample' }, [
      { ...installedAt('1.0.0', 'none'), resolution: { state: 'Resolved', version: '1.0.0', pinned: true } },
    ]);
    expect(unpinned).toMatchObject({
      channel: 'regular',
      template: ref('2.0.0'),
      resolution: { state: 'Resolved', version: '2.0.0' },
    });
    expect(unpinned?.resolution?.pinned).toBeUndefined();
  });

  it('refuses version together with a module channel (upstream wording), installing nothing', () => {
    const entry = resolveOne({ name: 'sample', version: '1.0.0', channel: 'fast' });
    expect(entry?.resolution).toEqual({
      state: 'Error',
      message:
        'invalid configuration in Kyma spec.modules for module sample: Version and channel are mutually exclusive options',
    });
    expect(entry?.template).toBeUndefined();
  });

  it('names a pinned version without template: Error on a first install, Warning keeping the installed template', () => {
    const message = 'ModuleTemplate sample-9.9.9 not found for module sample pinned to version 9.9.9';
    const first = resolveOne({ name: 'sample', version: '9.9.9' });
    expect(first).toMatchObject({ resolution: { state: 'Error', message, version: '9.9.9', pinned: true } });
    expect(first?.template).toBeUndefined();
    expect(resolveOne({ name: 'sample', version: '9.9.9' }, [installedAt('2.0.0')])).toMatchObject({
      template: ref('2.0.0'),
      resolution: { state: 'Warning', message },
    });
  });

  it('finds a pinned version without ModuleReleaseMeta by the templates of the module', () => {
    expect(resolveOne({ name: 'sample', version: '1.5.0' }, [], { withMrm: false })).toMatchObject({
      ocmComponentName: COMPONENT,
      template: ref('1.5.0'),
      resolution: { state: 'Resolved', pinned: true },
    });
    expect(resolveOne({ name: 'sample', version: '4.0.0' }, [], { withMrm: false })?.resolution?.message).toBe(
      'no ModuleReleaseMeta found for module sample and no ModuleTemplate for version 4.0.0',
    );
  });

  it('is recorded so that effectiveModules gives back the pin, and a pin change is a resolution change', () => {
    const k = kymaWith({ name: 'sample', version: '1.0.0' });
    const computed = resolveModules(observed(k));
    const stored: Kyma = { ...k, status: { modules: computed } };
    expect(effectiveModules(stored)).toEqual([{ name: 'sample', version: '1.0.0' }]);
    expect(sameResolution(stored, computed)).toBe(true);
    expect(sameResolution(stored, resolveModules(observed(kymaWith({ name: 'sample', version: '1.5.0' }))))).toBe(
      false,
    );
  });
});

describe('a pinned module and catalog changes', () => {
  it('reaches a Kyma waiting for its pinned template when that template appears, not for other templates', () => {
    const waiting = kymaWith({ name: 'sample', version: '9.9.9' }, [
      { name: 'sample', channel: 'none', resolution: { state: 'Error', version: '9.9.9', pinned: true } },
    ]);
    const template = (name: string) => ({
      kind: 'ModuleTemplate',
      apiVersion: 'operator.kyma-project.io/v1beta2',
      namespace: 'kcp-system',
      name,
    });
    expect(usesChange(waiting, template('sample-9.9.9'))).toBe(true);
    expect(usesChange(waiting, template('sample-2.0.0'))).toBe(false);
  });
});

describe('downgrades', () => {
  const refusal = (from: string, to: string, version: string) =>
    `ignore channel skew (from ${from} to ${to}), as a higher version (${version}) of the module was previously installed`;

  it("refuses an implicit downgrade by pin with upstream's message, keeping the installed template (Warning)", () => {
    const entry = resolveOne({ name: 'sample', version: '1.0.0' }, [installedAt('2.0.0')]);
    expect(entry).toMatchObject({
      channel: 'regular',
      template: ref('2.0.0'),
      resolution: { state: 'Warning', message: refusal('regular', 'none', '2.0.0'), version: '1.0.0', pinned: true },
    });
  });

  it('allows a downgrade only to exactly the version allowDowngradeTo names', () => {
    expect(
      resolveOne({ name: 'sample', version: '1.0.0', allowDowngradeTo: '1.0.0' }, [installedAt('2.0.0')]),
    ).toMatchObject({
      channel: 'none',
      template: ref('1.0.0'),
      resolution: { state: 'Resolved', version: '1.0.0', pinned: true },
    });
    expect(
      resolveOne({ name: 'sample', version: '1.0.0', allowDowngradeTo: '1.5.0' }, [installedAt('2.0.0')]),
    ).toMatchObject({
      template: ref('2.0.0'),
      resolution: { state: 'Warning', message: refusal('regular', 'none', '2.0.0') },
    });
  });

  it('refuses unpinning to a channel whose version is lower than the pinned one (from none to the channel)', () => {
    const pinnedHigh = [
      { ...installedAt('3.0.0', 'none'), resolution: { state: 'Resolved' as const, version: '3.0.0', pinned: true } },
    ];
    expect(resolveOne({ name: 'sample' }, pinnedHigh)).toMatchObject({
      channel: 'none',
      template: ref('3.0.0'),
      resolution: { state: 'Warning', message: refusal('none', 'regular', '3.0.0') },
    });
  });

  it('allows an explicit downgrade by channel too, and refuses the same channel switch without it', () => {
    const installed = [installedAt('3.0.0', 'fast')];
    expect(resolveOne({ name: 'sample', allowDowngradeTo: '2.0.0' }, installed)).toMatchObject({
      channel: 'regular',
      template: ref('2.0.0'),
      resolution: { state: 'Resolved' },
    });
    expect(resolveOne({ name: 'sample' }, installed)).toMatchObject({
      channel: 'fast',
      template: ref('3.0.0'),
      resolution: { state: 'Warning', message: refusal('fast', 'regular', '3.0.0') },
    });
  });

  it('announces a downgrade once: when resolution first picks the lower template, not again, and never for an upgrade', () => {
    const k = kymaWith({ name: 'sample', version: '1.0.0', allowDowngradeTo: '1.0.0' }, [installedAt('2.0.0')]);
    const computed = resolveModules(observed(k));
    expect(startedDowngrades(k, computed)).toEqual([{ module: 'sample', from: '2.0.0', to: '1.0.0' }]);
    const stored: Kyma = { ...k, status: { modules: [{ ...(computed[0] as ModuleStatus), version: '2.0.0' }] } };
    expect(startedDowngrades(stored, resolveModules(observed(stored)))).toEqual([]);
    const upgrade = kymaWith({ name: 'sample' }, [installedAt('1.0.0')]);
    expect(startedDowngrades(upgrade, resolveModules(observed(upgrade)))).toEqual([]);
    const refused = kymaWith({ name: 'sample', version: '1.0.0' }, [installedAt('2.0.0')]);
    expect(startedDowngrades(refused, resolveModules(observed(refused)))).toEqual([]);
    expect(downgradeEvent({ module: 'sample', from: '2.0.0', to: '1.0.0' })).toMatchObject({
      type: 'Normal',
      reason: 'ModuleDowngrade',
      message: expect.stringContaining('from 2.0.0 to 1.0.0'),
    });
  });
});
