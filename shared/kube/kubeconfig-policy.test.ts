import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { assertKubeconfigAllowed, KubeconfigRefusedError, kubeconfigRefusal } from './kubeconfig-policy.ts';

const kubeconfig = (user: Record<string, unknown>, cluster: Record<string, unknown> = {}) => stringify({
  apiVersion: 'v1', kind: 'Config', 'current-context': 'c',
  clusters: [{ name: 'k', cluster: { server: 'https://10.0.0.1:6443', 'certificate-authority-data': 'Q0E=', ...cluster } }],
  users: [{ name: 'u', user }],
  contexts: [{ name: 'c', context: { cluster: 'k', user: 'u' } }],
});
const SECRET = 'sUp3r-s3cret-t0ken';

describe('kubeconfigRefusal', () => {
  it('allows inline credentials: token, client certificate and key data, basic auth', () => {
    expect(kubeconfigRefusal(kubeconfig({ token: SECRET }), [])).toBeUndefined();
    expect(kubeconfigRefusal(kubeconfig({ 'client-certificate-data': 'Y2VydA==', 'client-key-data': 'a2V5' }), [])).toBeUndefined();
    expect(kubeconfigRefusal(kubeconfig({ username: 'a', password: SECRET }), [])).toBeUndefined();
  });

  it('refuses an exec credential plugin unless its command is allowed by name', () => {
    const exec = kubeconfig({ exec: { apiVersion: 'client.authentication.k8s.io/v1', command: '/bin/sh', args: ['-c', `echo ${SECRET}`] } });
    expect(kubeconfigRefusal(exec, [])).toMatch(/exec credential plugin \(command "\/bin\/sh"\).*LIFECYCLE_KUBECONFIG_EXEC_COMMANDS/);
    expect(kubeconfigRefusal(exec, ['sh', 'kubelogin'])).toMatch(/exec credential plugin/);
    expect(kubeconfigRefusal(exec, ['/bin/sh'])).toBeUndefined();
    expect(kubeconfigRefusal(kubeconfig({ exec: { args: ['x'] } }), ['/bin/sh'])).toMatch(/exec credential plugin, which is refused/);
  });

  it('refuses auth-providers, local files and proxies', () => {
    expect(kubeconfigRefusal(kubeconfig({ 'auth-provider': { name: 'gcp', config: { 'cmd-path': '/bin/sh' } } }), ['/bin/sh'])).toMatch(/auth-provider/);
    for (const field of ['token-file', 'client-certificate', 'client-key']) {
      expect(kubeconfigRefusal(kubeconfig({ [field]: '/var/run/secrets/kubernetes.io/serviceaccount/token' }), [])).toContain(`local file (${field})`);
    }
    expect(kubeconfigRefusal(kubeconfig({ token: SECRET }, { 'certificate-authority': '/etc/ssl/ca.pem' }), [])).toContain('local file (certificate-authority)');
    expect(kubeconfigRefusal(kubeconfig({ token: SECRET }, { 'proxy-url': 'http://proxy:3128' }), [])).toMatch(/proxy \(proxy-url\)/);
  });

  it('checks every user and cluster, not only the current context (loading reads them all)', () => {
    const text = stringify({ 'current-context': 'c', users: [{ name: 'u', user: { token: SECRET } }, { name: 'other', user: { 'token-file': '/etc/passwd' } }], clusters: [] });
    expect(kubeconfigRefusal(text, [])).toContain('token-file');
  });

  it('never quotes a secret value, and leaves text that is no kubeconfig to the loader', () => {
    const messages = [kubeconfig({ exec: { command: 'x', env: [{ name: 'T', value: SECRET }] } }), kubeconfig({ 'token-file': SECRET }), kubeconfig({ token: SECRET }, { 'proxy-url': `http://u:${SECRET}@p:1` })].map((t) => kubeconfigRefusal(t, []));
    for (const m of messages) expect(m).not.toContain(SECRET);
    for (const text of ['', 'not yaml: [', '42', 'users: 5', 'users: [null, 3, {user: null}]']) expect(kubeconfigRefusal(text, [])).toBeUndefined();
  });

  it('assertKubeconfigAllowed throws a KubeconfigRefusedError', () => {
    expect(() => assertKubeconfigAllowed(kubeconfig({ 'auth-provider': { name: 'oidc' } }), [])).toThrow(KubeconfigRefusedError);
    expect(() => assertKubeconfigAllowed(kubeconfig({ token: SECRET }), [])).not.toThrow();
  });
});
