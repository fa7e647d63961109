import { describe, expect, it } from 'vitest';
import { loadKubeConfig, renderKubeconfig } from './kubeconfig.ts';

describe('renderKubeconfig', () => {
  it('embeds CA and client certificate so the file stands alone', () => {
    const yaml = renderKubeconfig({
      cluster: 'runtime-1',
      server: 'https://127.0.0.1:6443',
      caPem: 'CA',
      user: 'admin',
      certPem: 'CERT',
      keyPem: 'KEY',
    });
    const kc = loadKubeConfig(yaml);
    expect(kc.getCurrentContext()).toBe('runtime-1');
    expect(kc.getCurrentCluster()).toMatchObject({
      server: 'https://127.0.0.1:6443',
      caData: Buffer.from('CA').toString('base64'),
    });
    expect(kc.getCurrentUser()).toMatchObject({
      name: 'admin',
      certData: Buffer.from('CERT').toString('base64'),
      keyData: Buffer.from('KEY').toString('base64'),
    });
  });

  it('writes a bearer token instead of a certificate when given one', () => {
    const kc = loadKubeConfig(
      renderKubeconfig({ cluster: 'kcp', server: 'https://127.0.0.1:1', caPem: 'CA', user: 'sa', token: 't0k' }),
    );
    expect(kc.getCurrentUser()).toMatchObject({ name: 'sa', token: 't0k' });
    expect(kc.getCurrentUser()?.certData).toBeUndefined();
  });
});
