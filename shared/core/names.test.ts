import { describe, expect, it } from 'vitest';
import { fnv1Hash32, manifestName } from './names.ts';

describe('fnv1Hash32 (FNV-1, as Go hash/fnv New32)', () => {
  it.each([
    ['', 0x811c9dc5],
    ['a', 0x050c5d7e],
    ['foobar', 0x31f0b262],
  ])('hashes %j to %i', (text, hash) => {
    expect(fnv1Hash32(text)).toBe(hash);
  });
});

describe('manifestName', () => {
  it('is <kyma>-<last component segment>-<fnv of component name + module name>', () => {
    const hash = fnv1Hash32('kyma-project.io/module/kedakeda');
    expect(manifestName('kyma-1', 'kyma-project.io/module/keda', 'keda')).toBe(`kyma-1-keda-${hash}`);
  });

  it('cuts names of 63 characters or more to 62, without a trailing dash', () => {
    const kyma = 'k'.repeat(50);
    const name = manifestName(kyma, 'kyma-project.io/module/template-operator', 'template-operator');
    expect(name.length).toBeLessThanOrEqual(62);
    expect(name.endsWith('-')).toBe(false);
    expect(name.startsWith(`${kyma}-template-operator`.slice(0, 40))).toBe(true);
  });

  it('keeps upstream\'s cut name while it leaves 8 digits of the hash', () => {
    const component = 'x.io/m/keda';
    const hash = String(fnv1Hash32(`${component}keda`));
    const kymaFor = (total: number) => 'k'.repeat(total - `-keda-${hash}`.length);
    // 63 characters and more, as long as upstream's cut leaves 8 digits: upstream's cut name
    const keeping = Array.from({ length: hash.length - 7 }, (_, i) => 63 + i).filter((total) => hash.length - (total - 62) >= 8);
    expect(keeping.length).toBeGreaterThan(0);
    for (const total of keeping) expect(manifestName(kymaFor(total), component, 'keda')).toBe(`${kymaFor(total)}-keda-${hash}`.slice(0, 62));
    // shorter than 63: upstream's name, uncut
    expect(manifestName(kymaFor(62), component, 'keda')).toBe(`${kymaFor(62)}-keda-${hash}`);
    // a cut that would leave fewer than 8 digits keeps the whole hash and cuts the Kyma part instead
    const long = kymaFor(62 + hash.length - 7);
    expect(manifestName(long, component, 'keda')).toBe(`${`${long}-keda`.slice(0, 62 - hash.length - 1)}-${hash}`);
  });

  it('never gives two modules of a long-named Kyma the same name: the hash is kept, the Kyma part is cut', () => {
    const modules = ['plain-octet', 'plain-xyaml', 'plain', 'plainer', 'p', 'template-operator', 'template-operator-2'];
    for (const length of [40, 50, 55, 60, 62, 63]) {
      const kyma = `${'r'.repeat(length - 4)}-rt1`.slice(0, length);
      const names = modules.map((m) => manifestName(kyma, `kyma-project.io/module/${m}`, m));
      expect(new Set(names).size, `Kyma name of ${length} characters: ${names.join(', ')}`).toBe(modules.length);
      for (const [i, name] of names.entries()) {
        expect(name.length).toBeLessThanOrEqual(62);
        expect(name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
        expect(manifestName(kyma, `kyma-project.io/module/${modules[i]}`, modules[i] ?? '')).toBe(name);
      }
    }
  });

  it('is deterministic and differs per module', () => {
    expect(manifestName('a', 'x.io/m/one', 'one')).toBe(manifestName('a', 'x.io/m/one', 'one'));
    expect(manifestName('a', 'x.io/m/one', 'one')).not.toBe(manifestName('a', 'x.io/m/one', 'two'));
  });
});
