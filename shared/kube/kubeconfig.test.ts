import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { kubeConfigOf, type TlsOptions } from './kubeconfig.ts';

const b64 = (text: string) => Buffer.from(text).toString('base64');
const applied = async (text: string, dir?: string): Promise<TlsOptions> => {
  const options: TlsOptions = {};
  await kubeConfigOf(text, dir).applyToHTTPSOptions(options);
  return options;
};
const twoContexts = (current: string) => `
apiVersion: v1
kind: Config
current-context: ${current}
contexts:
- name: a
  context: { cluster: ca, user: ua }
- name: b
  context: { cluster: cb, user: ub }
clusters:
- name: ca
  cluster: { server: 'https://a.example:6443', certificate-authority-data: ${b64('CA-A')} }
- name: cb
  cluster: { server: 'https://b.example:6443', insecure-skip-tls-verify: true }
users:
- name: ua
  user: { token: secret-a }
- name: ub
  user: { username: admin, password: pw }
`;

describe('KubeConfig', () => {
  it('reads a kubeconfig with inline data: server, CA, client certificate and key', async () => {
    const text = `apiVersion: v1
kind: Config
clusters: [{ name: runtime-1, cluster: { server: 'https://127.0.0.1:6443', certificate-authority-data: ${b64('CA')} } }]
users: [{ name: admin, user: { client-certificate-data: ${b64('CERT')}, client-key-data: ${b64('KEY')} } }]
contexts: [{ name: runtime-1, context: { cluster: runtime-1, user: admin } }]
current-context: runtime-1
`;
    const kc = kubeConfigOf(text);
    expect(kc.getCurrentContext()).toBe('runtime-1');
    expect(kc.getCurrentCluster()).toEqual({ server: 'https://127.0.0.1:6443' });
    const options = await applied(text);
    expect([options.ca?.toString(), options.cert?.toString(), options.key?.toString(), options.headers]).toEqual([
      'CA',
      'CERT',
      'KEY',
      undefined,
    ]);
  });

  it("takes the current context's cluster and user: a bearer token, or basic auth and no verification", async () => {
    const a = await applied(twoContexts('a'));
    expect([a.ca?.toString(), a.rejectUnauthorized, a.headers]).toEqual([
      'CA-A',
      undefined,
      { authorization: 'Bearer secret-a' },
    ]);
    expect(kubeConfigOf(twoContexts('b')).getCurrentCluster()?.server).toBe('https://b.example:6443');
    const b = await applied(twoContexts('b'));
    expect([b.ca, b.rejectUnauthorized, b.headers]).toEqual([
      undefined,
      false,
      { authorization: `Basic ${b64('admin:pw')}` },
    ]);
  });

  it('says which context, cluster or field is missing, never quoting a value', () => {
    expect(() => kubeConfigOf(twoContexts('c'))).toThrow('the kubeconfig has no context named "c"');
    expect(() => kubeConfigOf(twoContexts('a').replace('cluster: ca,', 'cluster: cx,'))).toThrow(
      'names cluster "cx", which it does not define',
    );
    expect(() => kubeConfigOf(twoContexts('a').replace("server: 'https://a.example:6443', ", ''))).toThrow(
      'the kubeconfig\'s cluster "ca" has no server',
    );
    expect(() =>
      kubeConfigOf(twoContexts('a').replace('{ token: secret-a }', '{ auth-provider: { name: oidc } }')),
    ).toThrow('auth-provider, which is not supported');
    const broken = 'token: secret-a\n  : [';
    expect(() => kubeConfigOf(broken)).toThrow('the kubeconfig is not YAML');
    try {
      kubeConfigOf(broken);
    } catch (e) {
      expect(String(e)).not.toContain('secret-a');
    }
  });

  describe('with files and plugins', () => {
    let dir = '';
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'kubeconfig-'));
      await writeFile(join(dir, 'ca.pem'), 'CA-FILE');
      await writeFile(join(dir, 'token'), 'file-token\n');
    });
    afterAll(() => rm(dir, { recursive: true, force: true }));

    it('reads the files a trusted kubeconfig names, relative to its own directory', async () => {
      const text = twoContexts('a')
        .replace(`certificate-authority-data: ${b64('CA-A')}`, 'certificate-authority: ca.pem')
        .replace('{ token: secret-a }', '{ token-file: token }');
      const options = await applied(text, dir);
      expect([options.ca?.toString(), options.headers]).toEqual(['CA-FILE', { authorization: 'Bearer file-token' }]);
    });

    it('runs an exec credential plugin with its arguments and env when the connection is made, and takes its token', async () => {
      const marker = join(dir, 'ran');
      const script = `require('fs').writeFileSync(${JSON.stringify(marker)}, process.argv[1] + ' ' + process.env.PLUGIN_MODE); console.log(JSON.stringify({ apiVersion: 'client.authentication.k8s.io/v1', kind: 'ExecCredential', status: { token: 'plugin-token' } }))`;
      const exec = {
        apiVersion: 'client.authentication.k8s.io/v1',
        command: process.execPath,
        args: ['-e', script, 'first-arg'],
        env: [{ name: 'PLUGIN_MODE', value: 'test' }],
      };
      const text = twoContexts('a').replace('{ token: secret-a }', JSON.stringify({ exec }));
      const kc = kubeConfigOf(text);
      await expect(
        import('node:fs/promises').then((fs) => fs.readFile(marker, 'utf8')),
        'loading runs nothing',
      ).rejects.toThrow();
      const options: TlsOptions = {};
      await kc.applyToHTTPSOptions(options);
      expect(options.headers).toEqual({ authorization: 'Bearer plugin-token' });
      expect(await import('node:fs/promises').then((fs) => fs.readFile(marker, 'utf8'))).toBe('first-arg test');
    });

    it('a plugin that fails or prints no credential: an error naming the command, not its output', async () => {
      const printing = (status: string, code = 0) =>
        twoContexts('a').replace(
          '{ token: secret-a }',
          JSON.stringify({
            exec: {
              command: process.execPath,
              args: ['-e', `console.log(${JSON.stringify(status)}); process.exit(${code})`],
            },
          }),
        );
      await expect(applied(printing('{"status":{"token":"leaked"}}', 3))).rejects.toThrow(
        /the exec credential plugin ".*" failed \(3\)/,
      );
      const error = await applied(printing('{"status":{"expirationTimestamp":"leaked"}}')).catch((e: unknown) =>
        String(e),
      );
      expect(error).toContain('printed no ExecCredential with a token or a client certificate');
      expect(error).not.toContain('leaked');
    });
  });
});
