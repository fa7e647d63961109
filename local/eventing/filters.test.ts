import { describe, expect, it } from 'vitest';
import { parseAttributesFilter, parseFilters } from './filter-spec.ts';
import { matches, matchesAll, type EventFilter } from './filters.ts';

const update = {
  specversion: '1.0',
  id: '1',
  source: 'https://127.0.0.1:6443',
  type: 'dev.knative.apiserver.resource.update',
  subject: '/apis/v1/namespaces/team-a/configmaps/web',
  kind: 'ConfigMap',
  name: 'web',
  namespace: 'team-a',
  knativebrokerttl: 255,
};

describe('Subscriptions API dialects', () => {
  it.each<[string, EventFilter, boolean]>([
    ['exact on a context attribute', { exact: { type: 'dev.knative.apiserver.resource.update' } }, true],
    ['exact on an extension', { exact: { kind: 'ConfigMap' } }, true],
    ['exact is case-sensitive', { exact: { kind: 'configmap' } }, false],
    ['exact entries are ANDed', { exact: { kind: 'ConfigMap', name: 'other' } }, false],
    ['exact "" does not match a set value', { exact: { name: '' } }, false],
    ['exact compares non-strings as text', { exact: { knativebrokerttl: '255' } }, true],
    ['prefix', { prefix: { type: 'dev.knative.apiserver.resource.' } }, true],
    ['prefix mismatch', { prefix: { type: 'dev.knative.sources.' } }, false],
    ['suffix', { suffix: { subject: '/web' } }, true],
    ['suffix mismatch', { suffix: { subject: '/api' } }, false],
    ['missing attribute never matches exact', { exact: { partitionkey: 'x' } }, false],
    ['missing attribute never matches prefix ""', { prefix: { partitionkey: '' } }, false],
    ['missing attribute never matches suffix', { suffix: { dataschema: '' } }, false],
    ['all: every one', { all: [{ exact: { kind: 'ConfigMap' } }, { prefix: { name: 'w' } }] }, true],
    ['all: one fails', { all: [{ exact: { kind: 'ConfigMap' } }, { prefix: { name: 'x' } }] }, false],
    ['any: one matches', { any: [{ exact: { kind: 'Secret' } }, { exact: { kind: 'ConfigMap' } }] }, true],
    ['any: none matches', { any: [{ exact: { kind: 'Secret' } }, { exact: { kind: 'Pod' } }] }, false],
    ['not', { not: { exact: { kind: 'Secret' } } }, true],
    ['not of a match', { not: { exact: { kind: 'ConfigMap' } } }, false],
    ['not of a missing attribute', { not: { exact: { partitionkey: 'x' } } }, true],
    [
      'nested',
      {
        all: [
          { any: [{ suffix: { type: '.add' } }, { suffix: { type: '.update' } }] },
          { not: { prefix: { namespace: 'kube-' } } },
        ],
      },
      true,
    ],
  ])('%s', (_, filter, expected) => {
    expect(matches(filter, update)).toBe(expected);
  });

  it('ANDs the entries of a filter list; an empty list matches everything', () => {
    expect(matchesAll([], update)).toBe(true);
    expect(matchesAll([{ exact: { kind: 'ConfigMap' } }, { exact: { namespace: 'team-a' } }], update)).toBe(true);
    expect(matchesAll([{ exact: { kind: 'ConfigMap' } }, { exact: { namespace: 'team-b' } }], update)).toBe(false);
  });
});

describe('legacy filter.attributes', () => {
  it('matches exactly, "" matches any value of a present attribute', () => {
    expect(matches({ attributes: { type: update.type, name: '' } }, update)).toBe(true);
    expect(matches({ attributes: { type: update.type, name: 'other' } }, update)).toBe(false);
  });

  it('an absent extension never matches, an unset context attribute counts as ""', () => {
    expect(matches({ attributes: { partitionkey: '' } }, update)).toBe(false);
    expect(matches({ attributes: { dataschema: '' } }, update)).toBe(true);
  });
});

describe('parseFilters (Trigger load time)', () => {
  it('reads every dialect', () => {
    const filters = parseFilters([
      { exact: { type: 'a' } },
      { prefix: { source: '/x' } },
      { suffix: { subject: '.yaml' } },
      { any: [{ exact: { kind: 'Kyma' } }] },
      { all: [{ not: { exact: { name: 'n' } } }] },
      {},
    ]);
    expect(filters).toEqual([
      { exact: { type: 'a' } },
      { prefix: { source: '/x' } },
      { suffix: { subject: '.yaml' } },
      { any: [{ exact: { kind: 'Kyma' } }] },
      { all: [{ not: { exact: { name: 'n' } } }] },
      { all: [] },
    ]);
  });

  it('rejects cesql with a clear message at load time', () => {
    expect(() => parseFilters([{ any: [{ cesql: "type = 'a'" }] }])).toThrow(
      /spec\.filters\[0\]\.any\[0\]\.cesql: CloudEvents SQL filters are not supported by the local broker/,
    );
  });

  it.each([
    ['two dialects in one filter', [{ exact: { type: 'a' }, prefix: { type: 'b' } }], /multiple dialects/],
    ['an unknown dialect', [{ regex: { type: 'a' } }], /unknown filter dialect regex/],
    [
      'more than one attribute per exact (Knative webhook)',
      [{ exact: { type: 'a', kind: 'b' } }],
      /only one attribute per filter/,
    ],
    ['an invalid attribute name', [{ exact: { Kind: 'a' } }], /lowercase alphanumeric/],
    ['a non-string value', [{ exact: { knativebrokerttl: 5 } }], /must be a string/],
    ['a non-list', { exact: { type: 'a' } }, /must be a list/],
  ])('rejects %s', (_, raw, message) => {
    expect(() => parseFilters(raw)).toThrow(message);
  });

  it('reads legacy attributes with many entries', () => {
    expect(parseAttributesFilter({ type: 'a', source: '' })).toEqual({ attributes: { type: 'a', source: '' } });
    expect(parseAttributesFilter(undefined)).toBeUndefined();
  });
});
