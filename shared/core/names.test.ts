import { describe, expect, it } from 'vitest';
import { chooseManifestName, fnv1Hash32, safeManifestName, upstreamManifestName } from './names.ts';

describe('fnv1Hash32 (FNV-1, as Go hash/fnv New32)', () => {
  it.each([
    ['', 0x811c9dc5],
    ['a', 0x050c5d7e],
    ['foobar', 0x31f0b262],
  ])('hashes %j to %i', (text, hash) => {
    expect(fnv1Hash32(text)).toBe(hash);
  });
});

describe('upstreamManifestName', () => {
  it('is <kyma>-<last component segment>-<fnv of component name + module name>', () => {
    const hash = fnv1Hash32('kyma-project.io/module/kedakeda');
    expect(upstreamManifestName('kyma-1', 'kyma-project.io/module/keda', 'keda')).toBe(`kyma-1-keda-${hash}`);
  });

  it('cuts names of 63 characters or more to 62, without a trailing dash, as upstream (its recorded names)', () => {
    // What upstream c5b83f1 wrote for 36-character runtime ids (test/fixtures/upstream-klm-c5b83f1/README.md).
    const kyma = '0c3a2f8e-6b1d-4e5a-9f7c-2d8b4a6e1c03';
    expect(upstreamManifestName(kyma, 'kyma-project.io/module/connectivity-proxy', 'connectivity-proxy')).toBe(
      `${kyma}-connectivity-proxy-381734`,
    );
    expect(upstreamManifestName(kyma, 'kyma-project.io/module/sample', 'sample')).toBe(`${kyma}-sample-1092497565`);
    const hash = String(fnv1Hash32('x.io/m/abab'));
    expect(upstreamManifestName('k'.repeat(56), 'x.io/m/ab', 'ab')).toBe(`${'k'.repeat(56)}-ab-${hash.slice(0, 2)}`);
    expect(upstreamManifestName('k'.repeat(59), 'x.io/m/ab', 'ab')).toBe(`${'k'.repeat(59)}-ab`);
  });
});

describe('safeManifestName', () => {
  it('keeps the whole hash and cuts the Kyma part: distinct per module, ≤ 62 characters, a valid name', () => {
    const modules = ['plain-octet', 'plain-xyaml', 'plain', 'plainer', 'p', 'template-operator', 'template-operator-2'];
    for (const length of [40, 50, 55, 60, 62, 63]) {
      const kyma = `${'r'.repeat(length - 4)}-rt1`.slice(0, length);
      const names = modules.map((m) => safeManifestName(kyma, `kyma-project.io/module/${m}`, m));
      expect(new Set(names).size, `Kyma name of ${length} characters: ${names.join(', ')}`).toBe(modules.length);
      for (const name of names) {
        expect(name.length).toBeLessThanOrEqual(62);
        expect(name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
      }
    }
  });
});

describe('chooseManifestName', () => {
  const kyma = '0c3a2f8e-6b1d-4e5a-9f7c-2d8b4a6e1c03';
  const component = 'kyma-project.io/module/connectivity-proxy';
  it("keeps the name the module's Manifest has, takes upstream's where free, the safe form where held", () => {
    expect(chooseManifestName(kyma, component, 'connectivity-proxy', 'any-name', () => true)).toBe('any-name');
    expect(chooseManifestName(kyma, component, 'connectivity-proxy', undefined, () => false)).toBe(
      `${kyma}-connectivity-proxy-381734`,
    );
    expect(chooseManifestName(kyma, component, 'connectivity-proxy', undefined, (n) => n.endsWith('-381734'))).toBe(
      `${kyma}-connectivity-p-3817348617`,
    );
  });
});
