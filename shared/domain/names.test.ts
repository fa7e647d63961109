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

  it('is deterministic and differs per module', () => {
    expect(manifestName('a', 'x.io/m/one', 'one')).toBe(manifestName('a', 'x.io/m/one', 'one'));
    expect(manifestName('a', 'x.io/m/one', 'one')).not.toBe(manifestName('a', 'x.io/m/one', 'two'));
  });
});
