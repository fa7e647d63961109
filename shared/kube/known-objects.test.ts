import { describe, expect, it } from 'vitest';
import { KnownObjects } from './known-objects.ts';

const kyma = (name: string, namespace = 'kyma-system', resourceVersion = '1') => ({
  apiVersion: 'operator.kyma-project.io/v1beta2',
  kind: 'Kyma',
  metadata: { name, namespace, uid: `uid-${name}`, resourceVersion, labels: { big: 'x'.repeat(100) } },
  spec: { modules: [{ name: 'oscar' }] },
});

describe('KnownObjects (ADR 75)', () => {
  it('names the announced objects a later list does not hold, by identity only, and forgets them', () => {
    const known = new KnownObjects('operator.kyma-project.io/v1beta2', 'Kyma');
    known.note('add', kyma('default'));
    known.note('add', kyma('other'));
    known.note('update', kyma('default', 'kyma-system', '7'));
    expect(known.vanished([kyma('other')])).toEqual([
      {
        apiVersion: 'operator.kyma-project.io/v1beta2',
        kind: 'Kyma',
        metadata: { name: 'default', namespace: 'kyma-system', uid: 'uid-default', resourceVersion: '7' },
      },
    ]);
    expect(known.vanished([kyma('other')])).toEqual([]);
  });

  it('takes every known object for gone when the kind is no longer served (an empty list)', () => {
    const known = new KnownObjects('v1', 'ConfigMap');
    known.note('add', kyma('a', 'one'));
    known.note('add', kyma('a', 'two'));
    expect(known.vanished([]).map((o) => `${o.metadata?.namespace}/${o.metadata?.name}`)).toEqual(['one/a', 'two/a']);
    expect(known.vanished([])).toEqual([]);
  });

  it('forgets an object whose deletion was announced, so its deletion is not reported twice', () => {
    const known = new KnownObjects('v1', 'ConfigMap');
    known.note('add', kyma('a'));
    known.note('delete', kyma('a'));
    expect(known.vanished([])).toEqual([]);
  });

  it('keeps list items without apiVersion and kind under the watched kind', () => {
    const known = new KnownObjects('v1', 'ConfigMap');
    known.note('add', { metadata: { name: 'a', namespace: 'n' } });
    expect(known.vanished([])[0]).toMatchObject({ apiVersion: 'v1', kind: 'ConfigMap' });
  });
});
