import { describe, expect, it } from 'vitest';
import type { Kyma, ModuleStatus } from './kyma.ts';
import type { ArtifactLookup } from './descriptors.ts';
import type { ModuleReleaseMeta, ModuleTemplate } from './templates.ts';
import { resolveModules, sameResolution } from './resolve-modules.ts';
import { aKyma, aTemplate } from '../../test/builders.ts';
import { awaitedReleases, channelVersionsOf } from './release-spread.ts';
import type { Observed } from './resolution.ts';

const COMPONENT = 'kyma-project.io/module/sample';
const kyma = (
  spec: NonNullable<Kyma['spec']>,
  labels: Record<string, string> = {},
  modules: ModuleStatus[] = [],
): Kyma => ({ ...aKyma({ labels, status: { modules } }), spec });
const mrm = (channels: { channel: string; version: string }[]): ModuleReleaseMeta => ({
  apiVersion: '',
  kind: 'ModuleReleaseMeta',
  metadata: { name: 'sample' },
  spec: { moduleName: 'sample', ocmComponentName: COMPONENT, channels },
});
const template = (
  version: string,
  labels: Record<string, string> = {},
  extra: Record<string, unknown> = {},
): ModuleTemplate => aTemplate({ version, labels, generation: 3, spec: extra });
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

function observed(
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

const CHANNELS = [
  { channel: 'regular', version: '1.0.0' },
  { channel: 'fast', version: '2.0.0' },
  { channel: 'old', version: '0.9.0' },
];

describe('resolveModules', () => {
  it('resolves module channel → version → template <module>-<version> through the ModuleReleaseMeta', () => {
    const [entry] = resolveModules(
      observed(kyma({ channel: 'regular', modules: [{ name: 'sample' }] }), {
        mrm: mrm(CHANNELS),
        templates: [template('1.0.0')],
        artifacts: [artifact('1.0.0')],
      }),
    );
    expect(entry).toEqual({
      name: 'sample',
      channel: 'regular',
      ocmComponentName: COMPONENT,
      fqdn: COMPONENT,
      template: {
        apiVersion: 'operator.kyma-project.io/v1beta2',
        kind: 'ModuleTemplate',
        metadata: { name: 'sample-1.0.0', namespace: 'kcp-system', generation: 3 },
      },
      resolution: { state: 'Resolved', version: '1.0.0' },
    });
  });

  it.each([
    [
      'module channel over Kyma channel',
      { channel: 'regular', modules: [{ name: 'sample', channel: 'fast' }] },
      'fast',
      '2.0.0',
    ],
    ['Kyma channel', { channel: 'fast', modules: [{ name: 'sample' }] }, 'fast', '2.0.0'],
    ['regular when neither is set', { channel: '', modules: [{ name: 'sample' }] }, 'regular', '1.0.0'],
  ])('picks the channel: %s', (_, spec, channel, version) => {
    const [entry] = resolveModules(
      observed(kyma(spec), {
        mrm: mrm(CHANNELS),
        templates: [template('1.0.0'), template('2.0.0')],
        artifacts: [artifact('1.0.0'), artifact('2.0.0')],
      }),
    );
    expect(entry).toMatchObject({ channel, resolution: { state: 'Resolved', version } });
  });

  it.each([
    [
      'channel none',
      { channel: 'none', modules: [{ name: 'sample' }] },
      { mrm: mrm(CHANNELS) },
      'Error',
      'Channel none is not allowed',
    ],
    [
      'channel missing in MRM',
      { channel: 'rapid', modules: [{ name: 'sample' }] },
      { mrm: mrm(CHANNELS) },
      'Error',
      'no versions found for channel: rapid in module sample',
    ],
    [
      'MRM without channels',
      { channel: 'regular', modules: [{ name: 'sample' }] },
      { mrm: mrm([]) },
      'Error',
      'no channels found for module sample',
    ],
    [
      'template missing',
      { channel: 'regular', modules: [{ name: 'sample' }] },
      { mrm: mrm(CHANNELS) },
      'Error',
      'ModuleTemplate sample-1.0.0 not found',
    ],
    [
      'no MRM and no channel template',
      { channel: 'regular', modules: [{ name: 'sample' }] },
      { all: [] },
      'Error',
      'no ModuleReleaseMeta found for module sample and no ModuleTemplate for channel regular',
    ],
    [
      'descriptor unreadable',
      { channel: 'regular', modules: [{ name: 'sample' }] },
      {
        mrm: mrm(CHANNELS),
        templates: [template('1.0.0')],
        artifacts: [[`${COMPONENT}:1.0.0`, { error: 'failed to get descriptor' }]] as [string, ArtifactLookup][],
      },
      'Error',
      'failed to get descriptor',
    ],
  ])('reports %s', (_, spec, opts, state, message) => {
    const [entry] = resolveModules(observed(kyma(spec), opts));
    expect(entry?.resolution).toMatchObject({ state, message: expect.stringContaining(message) });
    expect(entry?.template).toBeUndefined();
  });

  it('falls back to the single ModuleTemplate whose spec.channel matches when no MRM exists', () => {
    const descriptor = { component: { name: COMPONENT } };
    const all = [
      template('1.0.0', {}, { channel: 'regular', descriptor }),
      template('2.0.0', {}, { channel: 'fast', descriptor }),
    ];
    const [entry] = resolveModules(
      observed(kyma({ channel: 'fast', modules: [{ name: 'sample' }] }), { all, artifacts: [artifact('2.0.0')] }),
    );
    expect(entry).toMatchObject({
      ocmComponentName: COMPONENT,
      template: { metadata: { name: 'sample-2.0.0' } },
      resolution: { state: 'Resolved', version: '2.0.0' },
    });
  });

  it.each([
    ['beta', { 'operator.kyma-project.io/beta': 'true' }],
    ['internal', { 'operator.kyma-project.io/internal': 'TRUE' }],
  ])('refuses a %s template for a Kyma without the opt-in label (notAllowed, so the Manifest goes)', (kind, labels) => {
    const o = { mrm: mrm(CHANNELS), templates: [template('1.0.0', labels)], artifacts: [artifact('1.0.0')] };
    const [refused] = resolveModules(observed(kyma({ channel: 'regular', modules: [{ name: 'sample' }] }), o));
    expect(refused?.resolution).toMatchObject({
      state: 'Error',
      notAllowed: true,
      message: expect.stringContaining(`is ${kind}`),
    });
    const [allowed] = resolveModules(observed(kyma({ channel: 'regular', modules: [{ name: 'sample' }] }, labels), o));
    expect(allowed?.resolution?.state).toBe('Resolved');
  });

  it('keeps the installed template and channel and warns when the channel would downgrade (upstream message)', () => {
    const installed: ModuleStatus = {
      name: 'sample',
      channel: 'regular',
      version: '1.0.0',
      template: { apiVersion: 'x', kind: 'ModuleTemplate', metadata: { name: 'sample-1.0.0' } },
      ocmComponentName: COMPONENT,
    };
    const o = { mrm: mrm(CHANNELS), templates: [template('0.9.0')], artifacts: [artifact('0.9.0')] };
    const [entry] = resolveModules(
      observed(kyma({ channel: 'regular', modules: [{ name: 'sample', channel: 'old' }] }, {}, [installed]), o),
    );
    expect(entry).toMatchObject({
      channel: 'regular',
      template: { metadata: { name: 'sample-1.0.0' } },
      resolution: {
        state: 'Warning',
        message:
          'ignore channel skew (from regular to old), as a higher version (1.0.0) of the module was previously installed',
        channel: 'old',
      },
    });
    // The channel it followed is recorded: the release spread does not take the entry for one waiting on `regular`.
    expect(
      awaitedReleases(
        { ...kyma({ channel: 'regular' }), status: { modules: [entry as ModuleStatus] } },
        channelVersionsOf([mrm(CHANNELS)]),
      ),
    ).toEqual([]);
  });

  it('keeps the installed template while the registry cannot be reached (Error naming it), drops it for a broken descriptor', () => {
    const installed: ModuleStatus = {
      name: 'sample',
      channel: 'regular',
      version: '1.0.0',
      template: { apiVersion: 'x', kind: 'ModuleTemplate', metadata: { name: 'sample-1.0.0' } },
      ocmComponentName: COMPONENT,
    };
    const outage =
      'module registry: manifest r.example/component-descriptors/x:1.0.0: registry unreachable (ECONNREFUSED)';
    const withLookup = (lookup: ArtifactLookup) =>
      resolveModules(
        observed(kyma({ channel: 'regular', modules: [{ name: 'sample' }] }, {}, [installed]), {
          mrm: mrm(CHANNELS),
          templates: [template('1.0.0')],
          artifacts: [[`${COMPONENT}:1.0.0`, lookup]],
        }),
      )[0];
    expect(withLookup({ error: outage, transient: true })).toMatchObject({
      template: { metadata: { name: 'sample-1.0.0' } },
      resolution: { state: 'Error', message: outage },
    });
    expect(withLookup({ error: 'descriptor is not valid YAML' })?.template).toBeUndefined();
  });

  it('holds a downtime upgrade until the maintenance window opens; first installs and skipping Kymas never wait', () => {
    const installed: ModuleStatus = {
      name: 'sample',
      channel: 'regular',
      version: '1.0.0',
      template: { apiVersion: 'x', kind: 'ModuleTemplate', metadata: { name: 'sample-1.0.0' } },
      ocmComponentName: COMPONENT,
    };
    const o = {
      mrm: mrm(CHANNELS),
      templates: [template('2.0.0', {}, { requiresDowntime: true })],
      artifacts: [artifact('2.0.0')],
    };
    const upgrade = (skip = false, status = [installed]) =>
      observed(
        kyma(
          { channel: 'regular', skipMaintenanceWindows: skip, modules: [{ name: 'sample', channel: 'fast' }] },
          {},
          status,
        ),
        o,
      );
    const closed = { open: false };
    expect(resolveModules({ ...upgrade(), maintenance: closed })[0]).toMatchObject({
      channel: 'regular',
      template: { metadata: { name: 'sample-1.0.0' } },
      resolution: {
        state: 'Resolved',
        maintenance: true,
        version: '2.0.0',
        message: 'waiting for next maintenance window to update module version',
      },
    });
    expect(resolveModules({ ...upgrade(), maintenance: { open: true } })[0]).toMatchObject({
      channel: 'fast',
      template: { metadata: { name: 'sample-2.0.0' } },
      resolution: { state: 'Resolved' },
    });
    expect(resolveModules({ ...upgrade(), maintenance: undefined })[0]?.template?.metadata.name).toBe('sample-2.0.0');
    expect(resolveModules({ ...upgrade(true), maintenance: closed })[0]?.template?.metadata.name).toBe('sample-2.0.0');
    expect(resolveModules({ ...upgrade(false, []), maintenance: closed })[0]?.template?.metadata.name).toBe(
      'sample-2.0.0',
    );
    expect(
      resolveModules({ ...upgrade(), maintenance: { error: 'policy p: Unexpected end of JSON input' } })[0],
    ).toMatchObject({
      template: { metadata: { name: 'sample-1.0.0' } },
      resolution: {
        state: 'Error',
        message: 'failed to determine if maintenance window is active: policy p: Unexpected end of JSON input',
      },
    });
  });

  it('refuses a restricted module (listed, MRM kymaSelector) unless the selector matches the Kyma labels', () => {
    const restricted = {
      ...mrm(CHANNELS),
      spec: { ...mrm(CHANNELS).spec, kymaSelector: { matchLabels: { 'kyma-project.io/global-account-id': 'ga-1' } } },
    };
    const o = { mrm: restricted as ModuleReleaseMeta, templates: [template('1.0.0')], artifacts: [artifact('1.0.0')] };
    const resolve = (account: string, list: string[]) =>
      resolveModules({
        ...observed(
          kyma({ channel: 'regular', modules: [{ name: 'sample' }] }, { 'kyma-project.io/global-account-id': account }),
          o,
        ),
        restrictedModules: list,
      })[0];
    expect(resolve('ga-2', ['sample'])?.resolution).toMatchObject({
      state: 'Error',
      notAllowed: true,
      message: 'module sample is restricted and Kyma k1 does not match its kymaSelector',
    });
    expect(resolve('ga-1', ['sample'])?.resolution?.state).toBe('Resolved');
    // Not a restricted module, yet its release meta carries a kymaSelector: nowhere (upstream).
    expect(resolve('ga-1', [])?.resolution).toMatchObject({
      state: 'Error',
      notAllowed: true,
      message:
        'module sample is not a restricted module (LIFECYCLE_RESTRICTED_MODULES) but its ModuleReleaseMeta has a kymaSelector: not allowed',
    });
  });

  it('lists each module once (first occurrence wins) and none that left the spec', () => {
    const k = kyma({ channel: 'regular', modules: [{ name: 'sample' }, { name: 'sample', channel: 'fast' }] }, {}, [
      { name: 'gone', state: 'Deleting' },
    ]);
    const entries = resolveModules(
      observed(k, { mrm: mrm(CHANNELS), templates: [template('1.0.0')], artifacts: [artifact('1.0.0')] }),
    );
    expect(entries.map((e) => [e.name, e.channel])).toEqual([['sample', 'regular']]);
  });
});

describe('sameResolution', () => {
  it('ignores key order and fields other functions own', () => {
    const computed = resolveModules(
      observed(kyma({ channel: 'regular', modules: [{ name: 'sample' }] }), {
        mrm: mrm(CHANNELS),
        templates: [template('1.0.0')],
        artifacts: [artifact('1.0.0')],
      }),
    );
    const stored = kyma({ channel: 'regular' }, {}, [
      { state: 'Ready', version: '1.0.0', ...(JSON.parse(JSON.stringify(computed[0])) as ModuleStatus) },
    ]);
    expect(sameResolution(stored, computed)).toBe(true);
    expect(sameResolution(kyma({ channel: 'regular' }), computed)).toBe(false);
  });
});
