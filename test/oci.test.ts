import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { parse } from 'yaml';
import { packageModule, pushModule } from '../tools/module/package.ts';
import { fetchComponentDescriptor, fetchRawManifest } from '../shared/oci/component.ts';
import { RegistryError } from '../shared/oci/errors.ts';
import { OCI_MANIFEST, sha256Digest } from '../shared/oci/manifest.ts';
import { moduleContent } from '../shared/oci/ocm.ts';
import { RegistryClient } from '../shared/oci/registry.ts';
import { clusters } from './clusters.ts';

const run = promisify(execFile);
const { registryHost, binDir } = clusters();
const { runDir } = inject('controlPlane');
const oras = (cwd: string, ...args: string[]) => run(join(binDir, 'oras'), [...args, '--plain-http'], { cwd });
const registry = new RegistryClient({ host: registryHost, plainHttp: true });
const unique = () => randomBytes(4).toString('hex');

async function rejection(pending: Promise<unknown>): Promise<RegistryError> {
  const outcome = await pending.then(
    () => 'resolved',
    (e: unknown) => e,
  );
  if (outcome instanceof RegistryError) return outcome;
  throw new Error(`expected a RegistryError, got ${String(outcome)}`);
}

const rawManifest = [
  'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: sample-a\ndata:\n  key: "ä €"\n',
  'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: sample-b\n',
].join('---\n');

function samplePackage(version = '1.0.0+ci.7') {
  return packageModule({
    componentName: `kyma-project.io/module/oci-${unique()}`,
    version,
    rawManifest,
    defaultCr: { apiVersion: 'operator.kyma-project.io/v1alpha1', kind: 'Sample', metadata: { name: 'default' } },
    images: ['europe-docker.pkg.dev/kyma-project/prod/sample-manager:1.0.0'],
    registryBaseUrl: registryHost,
  });
}

describe('module component versions on the real registry', () => {
  it('pushes a module and reads descriptor and raw manifest back exactly', async () => {
    const pkg = samplePackage();
    const pushed = await pushModule(registry, pkg);
    expect(pushed.tag).toBe('1.0.0.build-ci.7');

    const descriptor = await fetchComponentDescriptor(registry, pkg.componentName, pkg.version);
    expect(descriptor.repositoryContexts).toEqual([
      { type: 'OCIRegistry', baseUrl: registryHost, componentNameMapping: 'urlPath' },
    ]);
    const content = moduleContent(descriptor);
    expect(content.install).toEqual({
      name: 'raw-manifest',
      type: 'oci-dir',
      ref: pushed.rawManifestDigest,
      componentName: pkg.componentName,
    });
    expect(content.localizedImages).toEqual(['europe-docker.pkg.dev/kyma-project/prod/sample-manager:1.0.0']);
    expect(await fetchRawManifest(registry, pkg.componentName, content.install)).toBe(rawManifest);
    const defaultCr = content.layers.find((l) => l.name === 'default-cr');
    expect(defaultCr && parse(await fetchRawManifest(registry, pkg.componentName, defaultCr))).toMatchObject({
      kind: 'Sample',
    });

    expect(await pushModule(registry, pkg)).toEqual(pushed);
  });

  it('refuses a version that is not in the registry', async () => {
    const error = await rejection(fetchComponentDescriptor(registry, 'kyma-project.io/module/absent', '9.9.9'));
    expect(error).toMatchObject({ code: 'NotFound', status: 404, retryable: false });
    expect(error.message).toContain(`${registryHost}/component-descriptors/kyma-project.io/module/absent:9.9.9`);
  });
});

describe('interoperability with the oras CLI', () => {
  it('oras reads what we pushed; the pulled raw-manifest tar is byte-identical', async () => {
    const pkg = samplePackage('2.0.0');
    const pushed = await pushModule(registry, pkg);
    const ref = `${registryHost}/${pushed.repository}:${pushed.tag}`;
    const dir = await mkdtemp(join(tmpdir(), 'oras-pull-'));

    const { stdout: descriptor } = await oras(dir, 'manifest', 'fetch', '--descriptor', ref);
    expect(JSON.parse(descriptor)).toMatchObject({ mediaType: OCI_MANIFEST, digest: pushed.manifestDigest });
    const { stdout: manifest } = await oras(dir, 'manifest', 'fetch', ref);
    expect(sha256Digest(Buffer.from(manifest))).toBe(pushed.manifestDigest);

    await oras(dir, 'pull', ref);
    for (const blob of pkg.blobs) expect((await readFile(join(dir, blob.fileName))).equals(blob.bytes)).toBe(true);
  });

  it('reads an artifact pushed by oras, digests verified', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'oras-push-'));
    const content = Buffer.concat([Buffer.from('kind: ConfigMap\n'), randomBytes(32 * 1024)]);
    await writeFile(join(dir, 'manifest.yaml'), content);
    const repository = `oras-interop/${unique()}`;
    await oras(
      dir,
      'push',
      '--artifact-type',
      'application/vnd.test.module',
      `${registryHost}/${repository}:v1`,
      'manifest.yaml:application/x-yaml',
    );

    const byTag = await registry.getManifest(repository, 'v1');
    expect(byTag).toMatchObject({ mediaType: OCI_MANIFEST, manifest: { artifactType: 'application/vnd.test.module' } });
    expect((await registry.getManifest(repository, byTag.digest)).bytes).toEqual(byTag.bytes);
    const [layer] = byTag.manifest.layers ?? [];
    expect(layer).toMatchObject({ digest: sha256Digest(content), size: content.length });
    expect(Buffer.from(await registry.getBlob(repository, layer?.digest ?? '')).equals(content)).toBe(true);
  });
});

describe('pull safety on the real registry', () => {
  it('rejects a blob corrupted on the registry disk and returns nothing', async () => {
    const repository = `corrupt/${unique()}`;
    const bytes = randomBytes(4096);
    const { digest } = await registry.pushBlob(repository, bytes);
    const hex = digest.slice('sha256:'.length);
    const data = join(runDir, 'registry/storage/docker/registry/v2/blobs/sha256', hex.slice(0, 2), hex, 'data');
    await writeFile(data, Buffer.from(bytes.map((b) => b ^ 0xff)));

    const error = await rejection(registry.getBlob(repository, digest));
    expect(error).toMatchObject({ code: 'DigestMismatch', retryable: false });
    expect(error.message).toContain(digest);
  });

  it('rejects a blob over maxBlobBytes, and accepts it with a larger per-call limit', async () => {
    const repository = `large/${unique()}`;
    const { digest } = await registry.pushBlob(repository, randomBytes(4096));
    const small = new RegistryClient({ host: registryHost, plainHttp: true, maxBlobBytes: 1024 });
    expect(await rejection(small.getBlob(repository, digest))).toMatchObject({ code: 'TooLarge' });
    expect((await small.getBlob(repository, digest, { maxBytes: 4096 })).length).toBe(4096);
  });
});

interface LocalServer {
  host: string;
  requests: { url: string; headers: IncomingHttpHeaders }[];
}
const servers: (() => void)[] = [];
afterEach(() => servers.splice(0).forEach((close) => close()));

/** A small HTTP server on loopback for the cases a real registry cannot produce on demand. */
async function localServer(
  handler: (req: IncomingMessage, res: ServerResponse, host: string) => void,
): Promise<LocalServer> {
  const requests: LocalServer['requests'] = [];
  let host = '';
  const server = createServer((req, res) => {
    requests.push({ url: req.url ?? '', headers: req.headers });
    handler(req, res, host);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  servers.push(() => {
    server.closeAllConnections();
    server.close();
  });
  return { host, requests };
}

const blob = Buffer.from('content behind a redirect\n');
const blobDigest = sha256Digest(blob);

describe('hosts, redirects and credentials', () => {
  it('sends no request to a host that is not allowed', async () => {
    const server = await localServer((_, res) => res.end());
    const client = new RegistryClient({ host: server.host, plainHttp: true, allowedHosts: ['registry.example'] });
    expect(await rejection(client.getManifest('repo', 'v1'))).toMatchObject({ code: 'HostNotAllowed' });
    expect(await rejection(client.getBlob('repo', blobDigest))).toMatchObject({ code: 'HostNotAllowed' });
    expect(server.requests).toEqual([]);
  });

  it('follows a blob redirect only to allowed hosts, and never with the Authorization header', async () => {
    const storage = await localServer((_, res) => res.end(blob));
    const registryWithBasic = await localServer((req, res) => {
      if (req.headers.authorization !== `Basic ${Buffer.from('robot:s3cret').toString('base64')}`) {
        res.writeHead(401, { 'www-authenticate': 'Basic realm="test"' }).end();
      } else res.writeHead(307, { location: `http://${storage.host}/bucket/blob` }).end();
    });
    const options = {
      host: registryWithBasic.host,
      plainHttp: true,
      credentials: { username: 'robot', password: 's3cret' },
    };

    const confined = new RegistryClient(options);
    expect(await rejection(confined.getBlob('repo', blobDigest))).toMatchObject({ code: 'HostNotAllowed' });
    expect(storage.requests).toEqual([]);

    const client = new RegistryClient({ ...options, allowedHosts: [registryWithBasic.host, storage.host] });
    expect(Buffer.from(await client.getBlob('repo', blobDigest)).equals(blob)).toBe(true);
    expect(storage.requests.map((r) => r.headers.authorization)).toEqual([undefined]);
  });

  it('cuts off a streamed body without Content-Length at the limit', async () => {
    const server = await localServer((_, res) => {
      res.write(randomBytes(3000));
      res.end(randomBytes(3000));
    });
    const client = new RegistryClient({ host: server.host, plainHttp: true, maxBlobBytes: 4096 });
    expect(await rejection(client.getBlob('repo', blobDigest))).toMatchObject({ code: 'TooLarge' });
  });

  it('reports a closed port as Unavailable and retryable', async () => {
    const server = await localServer((_, res) => res.end());
    servers.splice(0).forEach((close) => close());
    const client = new RegistryClient({ host: server.host, plainHttp: true, timeoutMs: 2000 });
    expect(await rejection(client.getManifest('repo', 'v1'))).toMatchObject({ code: 'Unavailable', retryable: true });
  });
});

describe('bearer token challenge', () => {
  const password = 'pa55-w0rd-never-logged';
  const manifest = JSON.stringify({
    schemaVersion: 2,
    mediaType: OCI_MANIFEST,
    config: { mediaType: 'application/vnd.oci.empty.v1+json', digest: blobDigest, size: 2 },
    layers: [],
  });

  async function tokenRegistry() {
    let issued = 0;
    const server = await localServer((req, res, host) => {
      const url = new URL(req.url ?? '/', `http://${host}`);
      if (url.pathname === '/token') {
        if (req.headers.authorization !== `Basic ${Buffer.from(`robot:${password}`).toString('base64')}`)
          return void res.writeHead(401).end();
        return void res.end(JSON.stringify({ token: `tok-${++issued}`, expires_in: 300 }));
      }
      if (!req.headers.authorization?.startsWith('Bearer tok-')) {
        const challenge = `Bearer realm="http://${host}/token",service="test-registry",scope="repository:team/module:pull"`;
        return void res
          .writeHead(401, { 'www-authenticate': challenge })
          .end(JSON.stringify({ errors: [{ code: 'UNAUTHORIZED' }] }));
      }
      res
        .writeHead(200, { 'content-type': OCI_MANIFEST, 'docker-content-digest': sha256Digest(Buffer.from(manifest)) })
        .end(manifest);
    });
    const tokenRequests = () => server.requests.filter((r) => r.url.startsWith('/token'));
    return { ...server, tokenRequests };
  }

  it('fetches a token with Basic credentials, caches it per scope and pulls the manifest', async () => {
    const server = await tokenRegistry();
    const client = new RegistryClient({
      host: server.host,
      plainHttp: true,
      credentials: { username: 'robot', password },
    });
    const pulled = await client.getManifest('team/module', '1.0.0');
    expect(pulled).toMatchObject({ mediaType: OCI_MANIFEST, digest: sha256Digest(Buffer.from(manifest)) });
    await client.getManifest('team/module', '1.0.0');

    expect(server.tokenRequests().map((r) => new URL(r.url, 'http://x').searchParams.toString())).toEqual([
      'service=test-registry&scope=repository%3Ateam%2Fmodule%3Apull',
    ]);
    expect(server.requests.filter((r) => r.url.startsWith('/v2/')).map((r) => r.headers.authorization)).toEqual([
      undefined,
      'Bearer tok-1',
      'Bearer tok-1',
    ]);
  });

  it('fails with Unauthorized on wrong credentials and never names the password', async () => {
    const server = await tokenRegistry();
    for (const credentials of [{ username: 'robot', password: `wrong-${password}` }, undefined]) {
      const client = new RegistryClient({ host: server.host, plainHttp: true, credentials });
      const error = await rejection(client.getManifest('team/module', '1.0.0'));
      expect(error).toMatchObject({ code: 'Unauthorized', status: 401 });
      for (const text of [error.message, String(error), error.stack ?? '', JSON.stringify(error)]) {
        expect(text).not.toContain(password);
        expect(text).not.toContain(Buffer.from(`robot:wrong-${password}`).toString('base64'));
      }
    }
  });
});
