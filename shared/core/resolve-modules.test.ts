import { describe, expect, it } from 'vitest';
import type { ArtifactLookup } from './descriptors.ts';
import { resolveModules } from './resolve-modules.ts';

import { artifact, CHANNELS, COMPONENT, kyma, mrm, observed, template } from '../../test/resolution-fixtures.ts';

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
});
