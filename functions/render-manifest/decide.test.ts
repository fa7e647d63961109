import { describe, expect, it } from 'vitest';
import type { Kyma } from '../../shared/core/kyma.ts';
import type { Manifest } from '../../shared/core/manifest.ts';
import type { ModuleTemplate } from '../../shared/core/templates.ts';
import { desiredManifest, toUnmanage, unwantedManifests } from './decide.ts';

const kyma = (modules: { name: string; managed?: boolean }[], refused: string[] = []): Kyma => ({
  apiVersion: 'v', kind: 'Kyma', metadata: { name: 'k1' }, spec: { channel: 'regular' },
  status: {
    specSource: { from: 'runtime', channel: 'regular' },
    modules: modules.map((m) => ({ name: m.name, resolution: refused.includes(m.name) ? { state: 'Error' as const, notAllowed: true } : { state: 'Resolved' as const, ...(m.managed === false ? { managed: false } : {}) } })),
  },
});
const manifest = (module: string, opts: { mandatory?: boolean; unmanaged?: boolean; deleting?: boolean; foreign?: boolean } = {}): Manifest => ({
  apiVersion: 'v', kind: 'Manifest', metadata: {
    name: `k1-${module}`, labels: { 'operator.kyma-project.io/module-name': module, ...(opts.foreign ? {} : { 'operator.kyma-project.io/managed-by': 'lifecycle-manager' }), ...(opts.mandatory ? { 'operator.kyma-project.io/mandatory-module': 'true' } : {}) },
    ...(opts.unmanaged ? { annotations: { 'operator.kyma-project.io/is-unmanaged': 'true' } } : {}), ...(opts.deleting ? { deletionTimestamp: 'x' } : {}),
  },
});
const names = (ms: Manifest[]) => ms.map((m) => m.metadata.name);

describe('unwantedManifests', () => {
  it('deletes Manifests of modules left out of the spec or refused, keeps wanted, deleting and unmanaged ones', () => {
    const all = [manifest('kept'), manifest('gone'), manifest('refused'), manifest('going', { deleting: true }), manifest('mine', { unmanaged: true })];
    expect(names(unwantedManifests(kyma([{ name: 'kept' }, { name: 'refused' }], ['refused']), all, new Set()))).toEqual(['k1-gone', 'k1-refused']);
  });

  it('leaves Manifests it did not render alone (written by someone else for this Kyma, e.g. of Helm charts)', () => {
    expect(names(unwantedManifests(kyma([]), [manifest('charts', { foreign: true }), manifest('gone')], new Set()))).toEqual(['k1-gone']);
  });

  it('keeps mandatory Manifests while their module is mandatory, whatever the spec says', () => {
    const all = [manifest('base', { mandatory: true }), manifest('retired', { mandatory: true })];
    expect(names(unwantedManifests(kyma([]), all, new Set(['base'])))).toEqual(['k1-retired']);
  });
});

describe('toUnmanage', () => {
  it('marks Manifests of managed: false modules once', () => {
    const all = [manifest('a'), manifest('b', { unmanaged: true }), manifest('c')];
    expect(names(toUnmanage(kyma([{ name: 'a', managed: false }, { name: 'b', managed: false }, { name: 'c' }]), all))).toEqual(['k1-a']);
  });
});

describe('desiredManifest', () => {
  const template: ModuleTemplate = { apiVersion: 'v', kind: 'ModuleTemplate', metadata: { name: 'sample-1.0.0' }, spec: {} } as ModuleTemplate;
  const source = { module: { name: 'sample' }, entry: { name: 'sample', channel: 'regular' }, template, componentName: 'kyma-project.io/module/sample', version: '1.0.0',
    install: { repo: 'r', name: 'kyma-project.io/module/sample', ref: 'sha256:0', type: 'oci-ref' as const }, localizedImages: [] };

  it('leaves spec.remote out for a Kyma with a runtime (remote, as upstream) and sets it false in single-cluster mode', () => {
    expect(desiredManifest(kyma([{ name: 'sample' }]), source).spec?.remote).toBeUndefined();
    const inCluster = kyma([{ name: 'sample' }]);
    inCluster.metadata.labels = { 'operator.kyma-project.io/in-cluster': 'true' };
    expect(desiredManifest(inCluster, source).spec?.remote).toBe(false);
  });
});
