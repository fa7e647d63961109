import { describe, expect, it } from 'vitest';
import { aKyma, aManifest, aTemplate } from '../../test/builders.ts';
import type { Kyma } from '../../shared/core/kyma.ts';
import type { Manifest } from '../../shared/core/manifest.ts';
import type { ModuleTemplate } from '../../shared/core/templates.ts';
import { upstreamManifestName } from '../../shared/core/names.ts';
import { ignoreReason, namedManifests, needsWrite, renderSteps, toUnmanage, unwantedManifests } from './decide.ts';
import { desiredManifest } from '../../shared/core/desired-manifest.ts';

const kyma = (modules: { name: string; managed?: boolean }[], refused: string[] = []): Kyma =>
  aKyma({
    status: {
      specSource: { from: 'runtime', channel: 'regular' },
      modules: modules.map((m) => ({
        name: m.name,
        resolution: refused.includes(m.name)
          ? { state: 'Error' as const, notAllowed: true }
          : { state: 'Resolved' as const, ...(m.managed === false ? { managed: false } : {}) },
      })),
    },
  });
const manifest = (
  module: string,
  opts: { mandatory?: boolean; unmanaged?: boolean; deleting?: boolean; foreign?: boolean } = {},
): Manifest =>
  aManifest({
    module,
    labels: {
      ...(opts.foreign ? { 'operator.kyma-project.io/managed-by': undefined } : {}),
      ...(opts.mandatory ? { 'operator.kyma-project.io/mandatory-module': 'true' } : {}),
    },
    ...(opts.unmanaged ? { annotations: { 'operator.kyma-project.io/is-unmanaged': 'true' } } : {}),
    deleting: opts.deleting === true,
  });
const names = (ms: Manifest[]) => ms.map((m) => m.metadata.name);

describe('unwantedManifests', () => {
  it('deletes Manifests of modules left out of the spec or refused, keeps wanted, deleting and unmanaged ones', () => {
    const all = [
      manifest('kept'),
      manifest('gone'),
      manifest('refused'),
      manifest('going', { deleting: true }),
      manifest('mine', { unmanaged: true }),
    ];
    expect(
      names(unwantedManifests(kyma([{ name: 'kept' }, { name: 'refused' }], ['refused']), all, new Set())),
    ).toEqual(['k1-gone', 'k1-refused']);
  });

  it('leaves Manifests it did not render alone (written by someone else for this Kyma, e.g. of Helm charts)', () => {
    expect(
      names(unwantedManifests(kyma([]), [manifest('charts', { foreign: true }), manifest('gone')], new Set())),
    ).toEqual(['k1-gone']);
  });

  it('keeps mandatory Manifests while their module is mandatory, whatever the spec says', () => {
    const all = [manifest('base', { mandatory: true }), manifest('retired', { mandatory: true })];
    expect(names(unwantedManifests(kyma([]), all, new Set(['base'])))).toEqual(['k1-retired']);
  });
});

describe('toUnmanage', () => {
  it('marks Manifests of managed: false modules once', () => {
    const all = [manifest('a'), manifest('b', { unmanaged: true }), manifest('c')];
    expect(
      names(toUnmanage(kyma([{ name: 'a', managed: false }, { name: 'b', managed: false }, { name: 'c' }]), all)),
    ).toEqual(['k1-a']);
  });
});

describe('desiredManifest', () => {
  const template: ModuleTemplate = aTemplate();
  const source = {
    module: { name: 'sample' },
    entry: { name: 'sample', channel: 'regular' },
    template,
    componentName: 'kyma-project.io/module/sample',
    version: '1.0.0',
    install: { repo: 'r', name: 'kyma-project.io/module/sample', ref: 'sha256:0', type: 'oci-ref' as const },
    localizedImages: [],
  };

  it("writes upstream's deprecated spec.remote: false for every Kyma; single-cluster mode is the in-cluster label (ADR 40)", () => {
    const remote = desiredManifest(kyma([{ name: 'sample' }]), source, 'k1-sample');
    expect(remote.spec?.remote).toBe(false);
    expect(remote.metadata.labels).not.toHaveProperty(['operator.kyma-project.io/in-cluster']);
    const inCluster = kyma([{ name: 'sample' }]);
    inCluster.metadata.labels = { 'operator.kyma-project.io/in-cluster': 'true' };
    const local = desiredManifest(inCluster, source, 'k1-sample');
    expect(local.spec?.remote).toBe(false);
    expect(local.metadata.labels?.['operator.kyma-project.io/in-cluster']).toBe('true');
  });
});

describe('needsWrite', () => {
  const template: ModuleTemplate = aTemplate();
  const source = {
    module: { name: 'sample' },
    entry: { name: 'sample', channel: 'regular' },
    template,
    componentName: 'kyma-project.io/module/sample',
    version: '1.0.0',
    install: { repo: 'r', name: 'kyma-project.io/module/sample', ref: 'sha256:0', type: 'oci-ref' as const },
    localizedImages: [],
  };
  const desired = desiredManifest(
    { ...kyma([{ name: 'sample' }]), metadata: { name: 'k1', uid: 'u1' } },
    source,
    'k1-sample',
  );

  it("takes a Manifest that means the same as written: upstream's (no empty lists, remote false) and older ones of ours (no remote)", () => {
    const without = (field: string) =>
      Object.fromEntries(Object.entries(desired.spec ?? {}).filter(([k]) => k !== field));
    expect(needsWrite({ ...desired, spec: without('localizedImages') }, desired)).toBe(false);
    expect(needsWrite({ ...desired, spec: without('remote') }, desired)).toBe(false);
    expect(
      needsWrite({ ...desired, spec: { ...desired.spec, resource: null } }, { ...desired, spec: { ...desired.spec } }),
    ).toBe(false);
  });

  it('writes what differs in meaning: a version, a localized image, a label', () => {
    expect(needsWrite({ ...desired, spec: { ...desired.spec, version: '0.9.0' } }, desired)).toBe(true);
    expect(needsWrite({ ...desired, spec: { ...desired.spec, localizedImages: ['a/b:1'] } }, desired)).toBe(true);
    expect(needsWrite({ ...desired, metadata: { ...desired.metadata, labels: {} } }, desired)).toBe(true);
  });
});

describe('namedManifests (ADR 40)', () => {
  const template: ModuleTemplate = aTemplate({ name: 't' });
  const RUNTIME_ID = '0c3a2f8e-6b1d-4e5a-9f7c-2d8b4a6e1c03';
  const uuidKyma: Kyma = {
    ...kyma([{ name: 'connectivity-proxy' }, { name: 'sample' }]),
    metadata: { name: RUNTIME_ID, uid: 'u' },
  };
  const src = (module: string) => ({
    module: { name: module },
    entry: { name: module, channel: 'regular' },
    template,
    componentName: `kyma-project.io/module/${module}`,
    version: '1.0.0',
    install: { repo: 'r', name: `kyma-project.io/module/${module}`, ref: 'sha256:0', type: 'oci-ref' as const },
    localizedImages: [],
  });
  const named = (existing: Manifest[], elsewhere: string[] = [], modules = ['sample', 'connectivity-proxy']) =>
    namedManifests(uuidKyma, modules.map(src), existing, (n) => elsewhere.includes(n)).map((m) => m.metadata.name);

  it("gives a new Manifest exactly upstream's name, also where upstream's cut leaves 6 digits of the hash", () => {
    expect(named([])).toEqual([`${RUNTIME_ID}-connectivity-proxy-381734`, `${RUNTIME_ID}-sample-1092497565`]);
  });

  it("starts a new Manifest's sync-oci-ref at its layer; an existing one keeps its own or none", () => {
    const [fresh] = namedManifests(uuidKyma, [src('sample')], [], () => false);
    expect(fresh?.metadata.annotations?.['sync-oci-ref']).toBe('sha256:0');
    const recorded: Manifest = {
      ...manifest('sample'),
      metadata: { ...manifest('sample').metadata, annotations: { 'sync-oci-ref': 'sha256:old' } },
    };
    expect(
      namedManifests(uuidKyma, [src('sample')], [recorded], () => false)[0]?.metadata.annotations?.['sync-oci-ref'],
    ).toBe('sha256:old');
    expect(
      namedManifests(uuidKyma, [src('sample')], [manifest('sample')], () => false)[0]?.metadata.annotations,
    ).not.toHaveProperty(['sync-oci-ref']);
  });

  it("adopts the Manifest a module has, whatever its name (an earlier rule's, a hand-made one)", () => {
    const earlier: Manifest = {
      ...manifest('connectivity-proxy'),
      metadata: { ...manifest('connectivity-proxy').metadata, name: `${RUNTIME_ID}-connectivity-p-3817348617` },
    };
    expect(named([earlier])[0]).toBe(`${RUNTIME_ID}-connectivity-p-3817348617`);
  });

  it("takes the collision-safe form only where upstream's name is held: by another module of the Kyma or another Kyma", () => {
    const upstream = upstreamManifestName(
      RUNTIME_ID,
      'kyma-project.io/module/connectivity-proxy',
      'connectivity-proxy',
    );
    expect(named([], [upstream])[0]).toBe(`${RUNTIME_ID}-connectivity-p-3817348617`);
    const holder: Manifest = { ...manifest('other'), metadata: { ...manifest('other').metadata, name: upstream } };
    expect(named([holder])[0]).toBe(`${RUNTIME_ID}-connectivity-p-3817348617`);
  });

  it('never gives two modules one name, in either order of the sources', () => {
    const long = { ...uuidKyma, metadata: { name: `runtime-${'0123456789abcdef'.repeat(4)}`.slice(0, 60), uid: 'u' } };
    const modules = ['plain-octet', 'plain-xyaml'];
    for (const order of [modules, [...modules].reverse()]) {
      const names = namedManifests(long, order.map(src), [], () => false).map((m) => m.metadata.name);
      expect(new Set(names).size).toBe(2);
      expect(names[0]).toBe(
        upstreamManifestName(long.metadata.name, 'kyma-project.io/module/plain-octet', 'plain-octet'),
      );
      for (const name of names) expect(name.length).toBeLessThanOrEqual(62);
    }
  });
});

describe('the steps of render-manifest, in order', () => {
  it.each([
    ['a Kyma gone', undefined, 'gone'],
    [
      'a Kyma being deleted (purge takes its Manifests)',
      { ...kyma([]), metadata: { name: 'k1', deletionTimestamp: 'x' } },
      'deleting',
    ],
    [
      'a Kyma that skips reconciliation',
      { ...kyma([]), metadata: { name: 'k1', labels: { 'operator.kyma-project.io/skip-reconciliation': 'true' } } },
      'skip-reconciliation',
    ],
    ['a Kyma not resolved yet: nothing is known to be wanted', { ...kyma([]), status: {} }, 'not resolved yet'],
  ])('renders nothing for %s', (_, k, why) => {
    expect(ignoreReason(k)).toEqual({ step: 'Ignore', why });
  });

  it('renders a resolved Kyma', () => {
    expect(ignoreReason(kyma([{ name: 'a' }]))).toBeUndefined();
  });

  it('writes the Manifests that differ first, then marks unmanaged ones, then deletes the unwanted', () => {
    const k = kyma([{ name: 'new' }, { name: 'same' }, { name: 'mine', managed: false }]);
    const plain = manifest('same');
    const same = {
      ...plain,
      metadata: {
        ...plain.metadata,
        ownerReferences: [{ apiVersion: 'v', kind: 'Kyma', name: 'k1', uid: 'u1', controller: true }],
      },
    };
    const steps = renderSteps({
      kyma: k,
      existing: [manifest('gone'), manifest('mine'), same],
      wanted: [manifest('new'), same],
      mandatory: new Set(),
    });
    expect(
      steps.map((s) => [s.step, 'name' in s ? s.name : s.step === 'WriteManifest' ? s.manifest.metadata.name : '']),
    ).toEqual([
      ['WriteManifest', 'k1-new'],
      ['MarkUnmanaged', 'k1-mine'],
      ['DeleteManifest', 'k1-gone'],
    ]);
  });
});
