import { describe, expect, it } from 'vitest';
import type { Kyma } from '../../shared/core/kyma.ts';
import { specSourceOf } from './decide.ts';
import { recordsAsResolved, RemoteKymaMemo } from './remote-memo.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { inputsOf } from './inputs.ts';
import { aKyma } from '../../test/builders.ts';

const runtimeKyma = (generation: number): Kyma => ({
  apiVersion: 'operator.kyma-project.io/v1beta2',
  kind: 'Kyma',
  metadata: { name: 'default', namespace: 'kyma-system', generation },
  spec: { channel: 'regular', modules: [] },
});

const kcpKyma = aKyma({ generation: 3, labels: { 'kyma-project.io/region': 'eu' } });

describe('a remembered runtime Kyma (ADR 43)', () => {
  it('counts only while the Kyma status records its generation as the one resolved', () => {
    expect(recordsAsResolved(runtimeKyma(2), { from: 'runtime', channel: 'regular', generation: 2 })).toBe(true);
    expect(
      recordsAsResolved(runtimeKyma(1), { from: 'runtime', channel: 'regular', generation: 2 }),
      'another instance read a newer one',
    ).toBe(false);
    expect(
      recordsAsResolved(runtimeKyma(3), { from: 'runtime', channel: 'regular', generation: 2 }),
      'newer than recorded: read again too',
    ).toBe(false);
  });

  it('does not count when the status records no generation or a list from the KCP', () => {
    expect(
      recordsAsResolved(runtimeKyma(1), { from: 'runtime', channel: 'regular' }),
      'a status written before ADR 43',
    ).toBe(false);
    expect(recordsAsResolved(runtimeKyma(1), { from: 'kcp', channel: 'regular' })).toBe(false);
    expect(recordsAsResolved(runtimeKyma(1), undefined), 'never resolved').toBe(false);
  });

  it('the status records the generation of the runtime Kyma the list came from, and none for the KCP spec', () => {
    const inputs = inputsOf(kcpKyma.metadata);
    expect(specSourceOf({ from: 'runtime', spec: { channel: 'fast' }, remote: runtimeKyma(4) }, kcpKyma)).toEqual({
      from: 'runtime',
      channel: 'fast',
      generation: 4,
      inputs,
    });
    expect(
      specSourceOf({ from: 'runtime', spec: { channel: 'fast' } }, kcpKyma),
      'created by another instance meanwhile: unknown',
    ).toEqual({ from: 'runtime', channel: 'fast', inputs });
    expect(
      specSourceOf({ from: 'kcp', spec: { channel: 'regular' }, remote: runtimeKyma(4) }, kcpKyma),
      'the runtime has no Kyma CRD yet: no digest, the next status write resolves again (ADR 66)',
    ).toEqual({ from: 'kcp', channel: 'regular' });
    const inCluster = aKyma({ generation: 3, labels: { 'operator.kyma-project.io/in-cluster': 'true' } });
    expect(specSourceOf({ from: 'kcp', spec: { channel: 'regular' } }, inCluster), 'in-cluster: for good').toEqual({
      from: 'kcp',
      channel: 'regular',
      inputs: inputsOf(inCluster.metadata),
    });
  });
});

describe('what the memo holds (ADR 85)', () => {
  it('holds a runtime Kyma created or read through a client within the TTL, whatever the status records', () => {
    const memo = new RemoteKymaMemo(60_000);
    const client = {} as KubeClient; // only an identity here: the memo keys by client
    expect(memo.holds(client, 'kcp-system/k1', 0)).toBe(false);
    memo.remember(client, 'kcp-system/k1', runtimeKyma(1), 0);
    expect(memo.holds(client, 'kcp-system/k1', 59_999)).toBe(true);
    expect(memo.recall(client, 'kcp-system/k1', undefined, 59_999), 'not recalled: no resolution recorded').toBe(
      undefined,
    );
    expect(memo.holds(client, 'kcp-system/k1', 60_001), 'past the TTL').toBe(false);
    expect(memo.holds({} as KubeClient, 'kcp-system/k1', 1), 'another client').toBe(false);
    memo.remember(client, 'kcp-system/k1', undefined, 2);
    expect(memo.holds(client, 'kcp-system/k1', 3), 'gone from the runtime').toBe(false);
  });
});
