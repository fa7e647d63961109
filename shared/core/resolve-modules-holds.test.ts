import { describe, expect, it } from 'vitest';
import type { ModuleStatus } from './kyma.ts';
import type { ArtifactLookup } from './descriptors.ts';
import type { ModuleReleaseMeta } from './templates.ts';
import { resolveModules, sameResolution } from './resolve-modules.ts';
import { awaitedReleases, channelVersionsOf } from './release-spread.ts';

import { artifact, CHANNELS, COMPONENT, kyma, mrm, observed, template } from '../../test/resolution-fixtures.ts';

describe('resolveModules: what holds or refuses a version', () => {
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
