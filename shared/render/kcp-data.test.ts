import { describe, expect, it } from 'vitest';
import { aManifest } from '../../test/builders.ts';
import type { Manifest } from '../core/manifest.ts';
import type { RuntimeObject } from './render.ts';
import { injectsKcpData, kcpSecretsWanted, withKcpData, type KcpSecret } from './kcp-data.ts';

const INJECT = 'operator.kyma-project.io/inject-data-from-kcp';
const MODULE = 'operator.kyma-project.io/module-name';
const secret = (
  name: string,
  annotations: Record<string, string> = { [INJECT]: 'true' },
  extra: Record<string, unknown> = {},
): RuntimeObject => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace: 'kyma-system', annotations },
  type: 'kubernetes.io/dockerconfigjson',
  data: { '.dockerconfigjson': 'cGxhY2Vob2xkZXI=' },
  ...extra,
});
const kcpSecret = (
  name: string,
  labels: Record<string, string> | undefined,
  data: Record<string, string> = { '.dockerconfigjson': 'S0NQLURBVEE=' },
): KcpSecret => ({
  metadata: { name, ...(labels ? { labels } : {}) },
  data,
});
const deployer = { [MODULE]: 'deployer' };
const manifest = (module: string): Manifest => aManifest({ name: 'm', module });

describe('injectsKcpData', () => {
  it('is only for the module deployer, and only while it is restricted', () => {
    expect(injectsKcpData(manifest('deployer'), ['deployer'])).toBe(true);
    expect(injectsKcpData(manifest('deployer'), ['other'])).toBe(false);
    expect(injectsKcpData(manifest('deployer'), [])).toBe(false);
    expect(injectsKcpData(manifest('sample'), ['deployer', 'sample'])).toBe(false);
    expect(injectsKcpData(aManifest({ name: 'm', labels: { [MODULE]: undefined } }), ['deployer'])).toBe(false);
  });
});

describe('kcpSecretsWanted', () => {
  it('names the v1 Secrets annotated "true", each once', () => {
    const objects = [
      secret('a'),
      secret('a'),
      secret('b', { [INJECT]: 'false' }),
      secret('c', {}),
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'd', annotations: { [INJECT]: 'true' } } },
      secret('e'),
    ];
    expect(kcpSecretsWanted(objects)).toEqual(['a', 'e']);
  });
});

describe('withKcpData', () => {
  it('replaces the data of annotated Secrets with the KCP data, drops stringData, leaves everything else', () => {
    const objects = [
      secret('pull', undefined, { stringData: { user: 'module-default' } }),
      secret('plain', {}),
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { k: 'v' } },
    ];
    const result = withKcpData(
      objects,
      new Map([['pull', kcpSecret('pull', deployer, { '.dockerconfigjson': 'S0NQ', extra: 'RVhUUkE=' })]]),
      'kcp-system',
    );
    if ('error' in result) throw new Error(result.error);
    expect(result[0]).toEqual({ ...secret('pull'), data: { '.dockerconfigjson': 'S0NQ', extra: 'RVhUUkE=' } });
    expect(result[0]).not.toHaveProperty('stringData');
    expect(result[1]).toBe(objects[1]);
    expect(result[2]).toBe(objects[2]);
    // the input is not changed
    expect(objects[0]?.data).toEqual({ '.dockerconfigjson': 'cGxhY2Vob2xkZXI=' });
    expect(objects[0]?.stringData).toEqual({ user: 'module-default' });
  });

  it('gives an empty data map when the KCP Secret has none', () => {
    const result = withKcpData(
      [secret('pull')],
      new Map([['pull', { metadata: { name: 'pull', labels: deployer } }]]),
      'kcp-system',
    );
    expect(result).toEqual([{ ...secret('pull'), data: {} }]);
  });

  it('is an error naming the Secret, never its data, when the KCP Secret is missing, unlabelled, labelled for another module or unreadable', () => {
    const cases: [KcpSecret | { error: string } | undefined, string][] = [
      [undefined, 'the KCP has no Secret kcp-system/pull'],
      [
        kcpSecret('pull', undefined),
        `the KCP Secret kcp-system/pull is not labelled ${MODULE}: deployer (it has no such label)`,
      ],
      [
        kcpSecret('pull', { [MODULE]: 'not-deployer' }),
        `the KCP Secret kcp-system/pull is not labelled ${MODULE}: deployer (it is labelled "not-deployer")`,
      ],
      [
        { error: 'GET /api/v1/namespaces/kcp-system/secrets/pull: 403 Forbidden' },
        'the KCP Secret kcp-system/pull cannot be read: GET /api/v1/namespaces/kcp-system/secrets/pull: 403 Forbidden',
      ],
    ];
    for (const [found, problem] of cases) {
      const result = withKcpData([secret('pull')], new Map(found ? [['pull', found]] : []), 'kcp-system');
      expect(result).toEqual({
        error: `Secret kyma-system/pull asks for its data from the KCP (${INJECT}), but ${problem}`,
      });
      expect(JSON.stringify(result)).not.toMatch(/S0NQLURBVEE=|cGxhY2Vob2xkZXI=/);
    }
  });

  it('names every Secret that has a problem', () => {
    const result = withKcpData(
      [secret('a'), secret('b'), secret('c')],
      new Map([['b', kcpSecret('b', deployer)]]),
      'kcp-system',
    );
    expect(result).toEqual({
      error: expect.stringMatching(
        /^Secret kyma-system\/a asks .*kcp-system\/a; Secret kyma-system\/c asks .*kcp-system\/c$/,
      ) as unknown,
    });
  });
});
