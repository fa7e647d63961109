import { describe, expect, it } from 'vitest';
import { readConfig } from './config.ts';

describe('readConfig', () => {
  it('starts the embedded control plane with one runtime when nothing is set', () => {
    expect(readConfig({})).toEqual({ kubeconfigPath: undefined, embeddedRuntimes: 1, logLevel: 'info' });
  });

  it('uses KUBECONFIG when set', () => {
    expect(readConfig({ KUBECONFIG: '/tmp/kcp.yaml' }).kubeconfigPath).toBe('/tmp/kcp.yaml');
  });

  it.each(['-1', '2.5', 'many', '21'])('rejects LIFECYCLE_EMBEDDED_RUNTIMES=%s with a clear message', (value) => {
    expect(() => readConfig({ LIFECYCLE_EMBEDDED_RUNTIMES: value })).toThrow(/LIFECYCLE_EMBEDDED_RUNTIMES must be an integer from 0 to 20/);
  });
});
