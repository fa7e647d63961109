import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { execAllowlist } from './exec-allowlist.ts';
import { assertKubeconfigAllowed, KubeconfigRefusedError, kubeconfigRefusal } from './kubeconfig-policy.ts';

const kubeconfig = (user: Record<string, unknown>, cluster: Record<string, unknown> = {}) =>
  stringify({
    apiVersion: 'v1',
    kind: 'Config',
    'current-context': 'c',
    clusters: [
      { name: 'k', cluster: { server: 'https://10.0.0.1:6443', 'certificate-authority-data': 'Q0E=', ...cluster } },
    ],
    users: [{ name: 'u', user }],
    contexts: [{ name: 'c', context: { cluster: 'k', user: 'u' } }],
  });
const SECRET = 'sUp3r-s3cret-t0ken';

describe('kubeconfigRefusal', () => {
  it('allows inline credentials: token, client certificate and key data, basic auth', () => {
    expect(kubeconfigRefusal(kubeconfig({ token: SECRET }), [])).toBeUndefined();
    expect(
      kubeconfigRefusal(kubeconfig({ 'client-certificate-data': 'Y2VydA==', 'client-key-data': 'a2V5' }), []),
    ).toBeUndefined();
    expect(kubeconfigRefusal(kubeconfig({ username: 'a', password: SECRET }), [])).toBeUndefined();
  });

  it('refuses an exec credential plugin unless its command is allowed by name', () => {
    const exec = kubeconfig({
      exec: { apiVersion: 'client.authentication.k8s.io/v1', command: '/bin/sh', args: ['-c', `echo ${SECRET}`] },
    });
    expect(kubeconfigRefusal(exec, [])).toMatch(
      /exec credential plugin \(command "\/bin\/sh"\).*LIFECYCLE_KUBECONFIG_EXEC_COMMANDS/,
    );
    expect(kubeconfigRefusal(exec, ['sh', 'kubelogin'])).toMatch(/exec credential plugin/);
    expect(kubeconfigRefusal(exec, ['/bin/sh'])).toMatch(/passes arguments that are not allowed/);
    expect(
      kubeconfigRefusal(exec, { plugins: [{ command: '/bin/sh', args: ['-c', `echo ${SECRET}`] }], env: [] }),
    ).toBeUndefined();
    expect(kubeconfigRefusal(kubeconfig({ exec: { command: '/bin/sh' } }), ['/bin/sh'])).toBeUndefined();
    expect(kubeconfigRefusal(kubeconfig({ exec: { args: ['x'] } }), ['/bin/sh'])).toMatch(
      /exec credential plugin, which is refused/,
    );
  });

  it('refuses auth-providers, local files and proxies', () => {
    expect(
      kubeconfigRefusal(kubeconfig({ 'auth-provider': { name: 'gcp', config: { 'cmd-path': '/bin/sh' } } }), [
        '/bin/sh',
      ]),
    ).toMatch(/auth-provider/);
    for (const field of ['token-file', 'client-certificate', 'client-key']) {
      expect(
        kubeconfigRefusal(kubeconfig({ [field]: '/var/run/secrets/kubernetes.io/serviceaccount/token' }), []),
      ).toContain(`local file (${field})`);
    }
    expect(
      kubeconfigRefusal(kubeconfig({ token: SECRET }, { 'certificate-authority': '/etc/ssl/ca.pem' }), []),
    ).toContain('local file (certificate-authority)');
    expect(kubeconfigRefusal(kubeconfig({ token: SECRET }, { 'proxy-url': 'http://proxy:3128' }), [])).toMatch(
      /proxy \(proxy-url\)/,
    );
  });

  it('checks every user and cluster, not only the current context (loading reads them all)', () => {
    const text = stringify({
      'current-context': 'c',
      users: [
        { name: 'u', user: { token: SECRET } },
        { name: 'other', user: { 'token-file': '/etc/passwd' } },
      ],
      clusters: [],
    });
    expect(kubeconfigRefusal(text, [])).toContain('token-file');
  });

  it('never quotes a secret value, and leaves text that is no kubeconfig to the loader', () => {
    const messages = [
      kubeconfig({ exec: { command: 'x', env: [{ name: 'T', value: SECRET }] } }),
      kubeconfig({ 'token-file': SECRET }),
      kubeconfig({ token: SECRET }, { 'proxy-url': `http://u:${SECRET}@p:1` }),
    ].map((t) => kubeconfigRefusal(t, []));
    for (const m of messages) expect(m).not.toContain(SECRET);
    for (const text of ['', 'not yaml: [', '42', 'users: 5', 'users: [null, 3, {user: null}]'])
      expect(kubeconfigRefusal(text, [])).toBeUndefined();
  });

  it('assertKubeconfigAllowed throws a KubeconfigRefusedError', () => {
    expect(() =>
      assertKubeconfigAllowed(kubeconfig({ exec: { command: 'kubelogin', args: ['get-token', '--token', SECRET] } }), [
        'kubelogin get-token',
      ]),
    ).toThrow(KubeconfigRefusedError);
    expect(() => assertKubeconfigAllowed(kubeconfig({ 'auth-provider': { name: 'oidc' } }), [])).toThrow(
      KubeconfigRefusedError,
    );
    expect(() => assertKubeconfigAllowed(kubeconfig({ token: SECRET }), [])).not.toThrow();
  });
});

// Issue 34: an allowed plugin runs only with the arguments and environment the operator allowed (ADR 31, addendum).
describe('kubeconfigRefusal of an allowed exec plugin: arguments and environment', () => {
  const KUBELOGIN = 'kubelogin get-token --login azurecli';
  const withExec = (exec: Record<string, unknown>) =>
    kubeconfig({ exec: { apiVersion: 'client.authentication.k8s.io/v1', ...exec } });
  const allowlist = (commands: string[], env: string[] = []) => execAllowlist(commands, env);

  it('allows the command with exactly the arguments of an entry (absent args = none)', () => {
    const allowed = allowlist([KUBELOGIN, '/usr/local/bin/gke-gcloud-auth-plugin']);
    expect(
      kubeconfigRefusal(withExec({ command: 'kubelogin', args: ['get-token', '--login', 'azurecli'] }), allowed),
    ).toBeUndefined();
    expect(kubeconfigRefusal(withExec({ command: '/usr/local/bin/gke-gcloud-auth-plugin' }), allowed)).toBeUndefined();
    expect(
      kubeconfigRefusal(withExec({ command: '/usr/local/bin/gke-gcloud-auth-plugin', args: [] }), allowed),
    ).toBeUndefined();
    expect(
      kubeconfigRefusal(withExec({ command: '/usr/local/bin/gke-gcloud-auth-plugin', args: null }), allowed),
    ).toBeUndefined();
    // The same strings as the setting, passed as a list (connectCluster's execCommands), mean the same.
    expect(
      kubeconfigRefusal(withExec({ command: 'kubelogin', args: ['get-token', '--login', 'azurecli'] }), [KUBELOGIN]),
    ).toBeUndefined();
  });

  it('refuses other arguments, extra ones, missing ones, other order, and arguments for an entry without any', () => {
    const allowed = allowlist([KUBELOGIN, 'bash']);
    const refused =
      /^its user's exec credential plugin \(command "(kubelogin|bash)"\) passes arguments that are not allowed; allow command and arguments exactly with LIFECYCLE_KUBECONFIG_EXEC_COMMANDS$/;
    for (const args of [
      ['get-token', '--login', 'devicecode'],
      ['get-token', '--login', 'azurecli', '--server-id', SECRET],
      ['get-token', '--login'],
      ['--login', 'azurecli', 'get-token'],
      [],
      ['get-token --login azurecli'],
    ]) {
      expect(kubeconfigRefusal(withExec({ command: 'kubelogin', args }), allowed), JSON.stringify(args)).toMatch(
        refused,
      );
    }
    expect(kubeconfigRefusal(withExec({ command: 'bash', args: ['-c', `touch /tmp/${SECRET}`] }), allowed)).toMatch(
      refused,
    );
    // Not a list of strings: client-node would hand an object to spawn as its options (shell, env, cwd).
    for (const args of [
      { shell: true, env: { BASH_ENV: SECRET } },
      'get-token',
      [['get-token'], '--login', 'azurecli'],
      ['get-token', '--login', 7],
    ]) {
      expect(kubeconfigRefusal(withExec({ command: 'kubelogin', args }), allowed)).toMatch(refused);
    }
  });

  it('refuses exec.env unless every name it sets is allowed, BASH_ENV included', () => {
    const exec = (env: unknown) => withExec({ command: 'bash', env });
    expect(kubeconfigRefusal(exec([{ name: 'BASH_ENV', value: `$(touch /tmp/${SECRET})` }]), allowlist(['bash']))).toBe(
      'its user\'s exec credential plugin (command "bash") sets environment variables (BASH_ENV) that are not allowed; allow names with LIFECYCLE_KUBECONFIG_EXEC_ENV',
    );
    expect(kubeconfigRefusal(exec([{ name: 'AZURE_CONFIG_DIR', value: '/tmp/az' }]), allowlist(['bash']))).toMatch(
      /sets environment variables \(AZURE_CONFIG_DIR\)/,
    );
    expect(
      kubeconfigRefusal(
        exec([{ name: 'AZURE_CONFIG_DIR', value: '/tmp/az' }]),
        allowlist(['bash'], ['AZURE_CONFIG_DIR']),
      ),
    ).toBeUndefined();
    expect(kubeconfigRefusal(exec([]), allowlist(['bash']))).toBeUndefined();
    expect(kubeconfigRefusal(exec(null), allowlist(['bash']))).toBeUndefined();
    // One allowed name does not let others through; each refused name is listed, the allowed one not.
    const mixed = kubeconfigRefusal(
      exec([
        { name: 'AZURE_CONFIG_DIR', value: 'x' },
        { name: 'BASH_ENV', value: 'y' },
        { name: 'LD_PRELOAD', value: 'z' },
      ]),
      allowlist(['bash'], ['AZURE_CONFIG_DIR']),
    );
    expect(mixed).toMatch(/sets environment variables \(BASH_ENV, LD_PRELOAD\) that are not allowed/);
    // Anything client-node would turn into a variable some other way is refused, without quoting it.
    for (const env of [
      { BASH_ENV: 'x' },
      [{ name: ['AZURE_CONFIG_DIR'], value: 'x' }],
      [null],
      ['BASH_ENV=x'],
      { name: 'AZURE_CONFIG_DIR', value: 'x' },
    ]) {
      expect(kubeconfigRefusal(exec(env), allowlist(['bash'], ['AZURE_CONFIG_DIR'])), JSON.stringify(env)).toMatch(
        /sets environment variables that are not allowed; allow names with LIFECYCLE_KUBECONFIG_EXEC_ENV$/,
      );
    }
  });

  it('checks arguments before the environment, and every user', () => {
    const text = stringify({
      users: [
        { name: 'ok', user: { exec: { command: 'bash' } } },
        {
          name: 'bad',
          user: { exec: { command: 'bash', args: ['-c', 'id'], env: [{ name: 'BASH_ENV', value: 'x' }] } },
        },
      ],
    });
    expect(kubeconfigRefusal(text, allowlist(['bash']))).toMatch(/passes arguments/);
    expect(kubeconfigRefusal(text, allowlist(['bash', 'bash -c id']))).toMatch(/BASH_ENV/);
  });

  it('never quotes an argument or an environment value, nor a name that is no variable name', () => {
    const texts = [
      withExec({ command: 'bash', args: ['-c', SECRET] }),
      withExec({ command: 'kubelogin', args: ['get-token', '--login', 'azurecli', SECRET] }),
      withExec({
        command: 'bash',
        env: [
          { name: 'BASH_ENV', value: SECRET },
          { name: 'TOKEN', value: SECRET },
        ],
      }),
      withExec({ command: 'bash', env: [{ name: `X=${SECRET}`, value: SECRET }] }),
      withExec({ command: 'bash', env: { [SECRET]: SECRET } }),
      withExec({ command: 'bash', args: { env: { BASH_ENV: SECRET } } }),
    ];
    for (const text of texts) {
      const message = kubeconfigRefusal(text, allowlist([KUBELOGIN, 'bash']));
      expect(message).toMatch(/not allowed/);
      expect(message).not.toContain(SECRET);
    }
  });
});

describe('execAllowlist', () => {
  it('reads entries as a command and its exact arguments, separated by single spaces', () => {
    expect(
      execAllowlist(
        ['kubelogin get-token --login azurecli', ' /usr/local/bin/gke-gcloud-auth-plugin ', ''],
        ['AZURE_CONFIG_DIR'],
      ),
    ).toEqual({
      plugins: [
        { command: 'kubelogin', args: ['get-token', '--login', 'azurecli'] },
        { command: '/usr/local/bin/gke-gcloud-auth-plugin', args: [] },
      ],
      env: ['AZURE_CONFIG_DIR'],
    });
    expect(() => execAllowlist(['kubelogin get-token  --login'])).toThrow(/single spaces/);
    expect(() => execAllowlist(['bash'], ['BAD NAME'])).toThrow(/not an environment variable name/);
  });
});
