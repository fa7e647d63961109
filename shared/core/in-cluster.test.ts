import { describe, expect, it } from 'vitest';
import { aKyma, aManifest } from '../../test/builders.ts';
import { inClusterRefusal, isInClusterKyma, targetOf } from './in-cluster.ts';
import type { Manifest } from './manifest.ts';
import { LABEL } from './vocabulary.ts';

const manifest = (opts: { remote?: boolean; kyma?: string; inCluster?: boolean }): Manifest =>
  aManifest({
    name: 'm',
    labels: {
      [LABEL.kymaName]: opts.kyma,
      ...(opts.inCluster ? { 'operator.kyma-project.io/in-cluster': 'true' } : {}),
    },
    spec: opts.remote === undefined ? {} : { remote: opts.remote },
  });

describe('targetOf', () => {
  it('sends a Manifest to its Kyma runtime whatever spec.remote says (upstream writes false on every Manifest, ADR 40)', () => {
    expect(targetOf(manifest({ kyma: 'k1' }), true)).toEqual({ kyma: 'k1' });
    expect(targetOf(manifest({ kyma: 'k1', remote: true }), true)).toEqual({ kyma: 'k1' });
    expect(targetOf(manifest({ kyma: 'k1', remote: false }), true)).toEqual({ kyma: 'k1' });
    expect(targetOf(manifest({ kyma: 'k1', remote: false }), false)).toEqual({ kyma: 'k1' });
  });

  it('sends a Manifest labelled in-cluster into the control-plane cluster, with or without a Kyma, when the control plane allows it', () => {
    expect(targetOf(manifest({ kyma: 'k1', inCluster: true }), true)).toEqual({ inCluster: true });
    expect(targetOf(manifest({ inCluster: true }), true)).toEqual({ inCluster: true });
  });

  it('refuses an in-cluster Manifest where in-cluster installs are disabled, naming the setting', () => {
    const target = targetOf(manifest({ kyma: 'k1', inCluster: true }), false);
    expect(target).toEqual({ refused: inClusterRefusal(false) });
    expect(inClusterRefusal(false)).toContain('LIFECYCLE_IN_CLUSTER=true');
    expect(inClusterRefusal(true)).toBe('');
  });

  it('refuses a remote Manifest without a Kyma: there is no runtime to install to', () => {
    expect(targetOf(manifest({}), true)).toEqual({ refused: expect.stringContaining('no runtime to install to') });
    expect(targetOf(manifest({ remote: false }), true)).toEqual({
      refused: expect.stringContaining('no runtime to install to'),
    });
  });
});

describe('isInClusterKyma', () => {
  it('is the label operator.kyma-project.io/in-cluster "true", nothing else', () => {
    const kyma = (labels: Record<string, string> = {}) => aKyma({ name: 'k', labels });
    expect(isInClusterKyma(kyma({ 'operator.kyma-project.io/in-cluster': 'true' }))).toBe(true);
    expect(isInClusterKyma(kyma({ 'operator.kyma-project.io/in-cluster': 'false' }))).toBe(false);
    expect(isInClusterKyma(kyma())).toBe(false);
  });
});
