import { describe, expect, it } from 'vitest';
import { serverOfKubeconfig } from './runtime-servers.ts';

const kubeconfig = (current: string) => `
apiVersion: v1
kind: Config
current-context: ${current}
contexts:
  - name: one
    context: { cluster: first, user: u }
  - name: two
    context: { cluster: second, user: u }
clusters:
  - name: first
    cluster: { server: "https://10.0.0.1:6443" }
  - name: second
    cluster: { server: "https://10.0.0.2:443" }
users:
  - name: u
    user: { token: not-read }
`;

describe('serverOfKubeconfig', () => {
  it("reads the server of the current context's cluster", () => {
    expect(serverOfKubeconfig(kubeconfig('two'))).toBe('https://10.0.0.2:443');
    expect(serverOfKubeconfig(kubeconfig('one'))).toBe('https://10.0.0.1:6443');
  });
  it('falls back to the first cluster when the current context names none', () => {
    expect(serverOfKubeconfig(kubeconfig('missing'))).toBe('https://10.0.0.1:6443');
  });
  it('gives undefined for text that is not a kubeconfig', () => {
    for (const text of [
      '',
      'just text',
      '[1, 2]',
      '{ clusters: 5 }',
      ': : :',
      'clusters: [{ cluster: { server: 7 } }]',
    ])
      expect(serverOfKubeconfig(text)).toBeUndefined();
  });
});
