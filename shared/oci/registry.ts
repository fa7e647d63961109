import {
  basicAuthorization,
  parseChallenge,
  TokenCache,
  tokenFromResponse,
  type Challenge,
  type Credentials,
} from './auth.ts';
import { badContent, RegistryError, registryCodesOf, registryErrorFromStatus } from './errors.ts';
import {
  MANIFEST_ACCEPT,
  MAX_MANIFEST_BYTES,
  parseManifest,
  sha256Digest,
  type OciDescriptor,
  type OciManifest,
} from './manifest.ts';
import { isValidDigest, isValidHost, isValidRepository, isValidTag } from './reference.ts';
import { discard, readLimited, unavailable } from './transfer.ts';

export { credentialsFromDockerConfig, type Credentials } from './auth.ts';

export interface RegistryClientOptions {
  /** `host[:port]` of the registry, as in OCI references. */
  host: string;
  plainHttp?: boolean;
  credentials?: Credentials | undefined;
  /** Largest blob `getBlob` accepts unless told otherwise; 64 MiB by default. */
  maxBlobBytes?: number;
  /** Every URL the client requests (registry, redirects, token realm) must be on one of these; default `[host]`. */
  allowedHosts?: string[];
  /** Per request, including reading the body; 30 s by default. */
  timeoutMs?: number;
}

export interface PulledManifest {
  digest: string;
  mediaType: string;
  manifest: OciManifest;
  bytes: Uint8Array;
}

interface Exchange {
  method: 'GET' | 'HEAD' | 'POST' | 'PUT';
  url: string;
  /** Token scope, `repository:<repo>:pull` or `…:pull,push`. */
  scope: string;
  /** Names the operation in errors: host, repository, reference — never credentials. */
  what: string;
  headers?: Record<string, string>;
  body?: Uint8Array;
}

const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A client for one OCI registry (distribution-spec v1.1) over `fetch`: pulls and pushes manifests and blobs. */
export class RegistryClient {
  readonly host: string;
  readonly maxBlobBytes: number;
  private readonly origin: string;
  private readonly plainHttp: boolean;
  private readonly allowedHosts: Set<string>;
  private readonly credentials: Credentials | undefined;
  private readonly timeoutMs: number;
  private readonly tokens = new TokenCache();
  private useBasic = false;

  constructor(options: RegistryClientOptions) {
    if (!isValidHost(options.host)) throw badContent(`invalid registry host "${options.host}"`);
    this.host = options.host;
    this.plainHttp = options.plainHttp ?? false;
    this.origin = new URL(`${this.plainHttp ? 'http' : 'https'}://${options.host}`).origin;
    this.credentials = options.credentials;
    this.maxBlobBytes = options.maxBlobBytes ?? 64 * 1024 * 1024;
    this.allowedHosts = new Set((options.allowedHosts ?? [options.host]).map((h) => h.toLowerCase()));
    this.timeoutMs = options.timeoutMs ?? 30_000;
  }

  /** Pulls a manifest by tag or digest; the content digest is computed and checked against what was asked for. */
  async getManifest(repository: string, tagOrDigest: string): Promise<PulledManifest> {
    const byDigest = isValidDigest(tagOrDigest);
    const exchange = this.exchange(repository, 'GET', 'manifests', tagOrDigest, {
      headers: { accept: MANIFEST_ACCEPT },
    });
    if (!byDigest && !isValidTag(tagOrDigest)) throw badContent(`${exchange.what}: invalid tag or digest`);
    const res = await this.expect(200, exchange);
    const { bytes, digest } = await readLimited(res, MAX_MANIFEST_BYTES, exchange.what);
    const announced = res.headers.get('docker-content-digest');
    if ((byDigest && digest !== tagOrDigest) || (announced && isValidDigest(announced) && announced !== digest)) {
      throw new RegistryError('DigestMismatch', `${exchange.what}: content digest ${digest} does not match`);
    }
    const manifest = parseManifest(bytes, exchange.what);
    const mediaType = manifest.mediaType ?? res.headers.get('content-type')?.split(';')[0]?.trim() ?? '';
    return { digest, mediaType, manifest, bytes };
  }

  /** Pulls a blob, streaming with a size limit; the sha256 of the content must match the digest. */
  async getBlob(repository: string, digest: string, options: { maxBytes?: number } = {}): Promise<Uint8Array> {
    const exchange = this.exchange(repository, 'GET', 'blobs', digest);
    if (!isValidDigest(digest)) throw badContent(`${exchange.what}: not a sha256 digest`);
    const res = await this.expect(200, exchange);
    const pulled = await readLimited(res, options.maxBytes ?? this.maxBlobBytes, exchange.what);
    if (pulled.digest !== digest)
      throw new RegistryError('DigestMismatch', `${exchange.what}: content has digest ${pulled.digest}`);
    return pulled.bytes;
  }

  async hasBlob(repository: string, digest: string): Promise<boolean> {
    const exchange = this.exchange(repository, 'HEAD', 'blobs', digest);
    if (!isValidDigest(digest)) throw badContent(`${exchange.what}: not a sha256 digest`);
    const res = await this.send(exchange);
    if (res.status === 404) return false;
    await this.check(200, res, exchange.what);
    return true;
  }

  /** Uploads a blob (POST, then PUT `?digest=`) unless the registry already has it. */
  async pushBlob(repository: string, bytes: Uint8Array): Promise<OciDescriptor & { uploaded: boolean }> {
    const digest = sha256Digest(bytes);
    const blob = { mediaType: 'application/octet-stream', digest, size: bytes.length };
    if (await this.hasBlob(repository, digest)) return { ...blob, uploaded: false };
    const start = this.exchange(repository, 'POST', 'blobs', 'uploads/', { push: true });
    const started = await this.expect(202, start);
    await discard(started);
    const location = started.headers.get('location');
    if (!location) throw badContent(`${start.what}: registry sent no upload location`);
    const upload = new URL(location, `${this.origin}/`);
    upload.searchParams.set('digest', digest);
    await discard(
      await this.expect(201, {
        ...start,
        method: 'PUT',
        url: upload.href,
        what: `blob upload ${this.name(repository, digest)}`,
        headers: { 'content-type': 'application/octet-stream' },
        body: bytes,
      }),
    );
    return { ...blob, uploaded: true };
  }

  /** Stores a manifest under a tag and returns its digest. */
  async pushManifest(
    repository: string,
    tag: string,
    manifest: string | Uint8Array,
    mediaType: string,
  ): Promise<string> {
    const bytes = typeof manifest === 'string' ? new TextEncoder().encode(manifest) : manifest;
    const exchange = this.exchange(repository, 'PUT', 'manifests', tag, {
      push: true,
      headers: { 'content-type': mediaType },
      body: bytes,
    });
    if (!isValidTag(tag)) throw badContent(`${exchange.what}: invalid tag`);
    if (bytes.length > MAX_MANIFEST_BYTES)
      throw new RegistryError('TooLarge', `${exchange.what}: manifest exceeds ${MAX_MANIFEST_BYTES} bytes`);
    const res = await this.expect(201, exchange);
    await discard(res);
    const digest = sha256Digest(bytes);
    const stored = res.headers.get('docker-content-digest');
    if (stored && stored !== digest)
      throw new RegistryError('DigestMismatch', `${exchange.what}: registry stored ${stored}, sent ${digest}`);
    return digest;
  }

  private name(repository: string, ref: string): string {
    return `${this.host}/${repository}${isValidDigest(ref) ? '@' : ':'}${ref}`;
  }

  private exchange(
    repository: string,
    method: Exchange['method'],
    kind: 'manifests' | 'blobs',
    ref: string,
    extra: { push?: boolean; headers?: Record<string, string>; body?: Uint8Array } = {},
  ): Exchange {
    const noun = kind === 'blobs' ? (ref === 'uploads/' ? 'blob upload' : 'blob') : 'manifest';
    const what = `${noun} ${ref === 'uploads/' ? `${this.host}/${repository}` : this.name(repository, ref)}`;
    if (!isValidRepository(repository)) throw badContent(`${what}: invalid repository name`);
    const scope = `repository:${repository}:${extra.push ? 'pull,push' : 'pull'}`;
    return {
      method,
      url: `${this.origin}/v2/${repository}/${kind}/${ref}`,
      scope,
      what,
      ...(extra.headers ? { headers: extra.headers } : {}),
      ...(extra.body ? { body: extra.body } : {}),
    };
  }

  private async expect(status: number, exchange: Exchange): Promise<Response> {
    return this.check(status, await this.send(exchange), exchange.what);
  }

  private async check(status: number, res: Response, what: string): Promise<Response> {
    if (res.status === status) return res;
    const body = await res.text().catch(() => '');
    throw registryErrorFromStatus(res.status, what, registryCodesOf(body));
  }

  /** One request with authentication (anonymous first, then per challenge) and manually followed redirects. */
  private async send(exchange: Exchange): Promise<Response> {
    let url = new URL(exchange.url);
    for (let hop = 0; hop <= MAX_REDIRECTS; hop++) {
      this.checkAllowed(url, exchange.what);
      const sameOrigin = url.origin === this.origin;
      let res = await this.fetchOnce(url, exchange, sameOrigin ? this.authorization(exchange.scope) : undefined);
      if (res.status === 401 && sameOrigin && (await this.authenticate(res, exchange))) {
        res = await this.fetchOnce(url, exchange, this.authorization(exchange.scope));
      }
      const location = res.headers.get('location');
      const follow = REDIRECTS.has(res.status) && (exchange.method === 'GET' || exchange.method === 'HEAD');
      if (!follow || !location) return res;
      await discard(res);
      const next = new URL(location, url);
      if (url.protocol === 'https:' && next.protocol !== 'https:') {
        throw new RegistryError(
          'HostNotAllowed',
          `${exchange.what}: refusing a redirect from https to ${next.protocol}`,
        );
      }
      url = next;
    }
    throw badContent(`${exchange.what}: more than ${MAX_REDIRECTS} redirects`);
  }

  /** Authorization goes only to the registry's own origin; redirects elsewhere are requested without it. */
  private async fetchOnce(url: URL, exchange: Exchange, authorization: string | undefined): Promise<Response> {
    const headers = { ...exchange.headers, ...(authorization ? { authorization } : {}) };
    try {
      return await fetch(url, {
        method: exchange.method,
        headers,
        redirect: 'manual',
        signal: AbortSignal.timeout(this.timeoutMs),
        ...(exchange.body ? { body: exchange.body } : {}),
      });
    } catch (e) {
      throw unavailable(exchange.what, e);
    }
  }

  private checkAllowed(url: URL, what: string): void {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new RegistryError('HostNotAllowed', `${what}: scheme ${url.protocol} is not allowed`);
    }
    if (!this.allowedHosts.has(url.host.toLowerCase())) {
      throw new RegistryError('HostNotAllowed', `${what}: host ${url.host} is not an allowed registry host`);
    }
  }

  private authorization(scope: string): string | undefined {
    const token = this.tokens.get(scope);
    if (token) return `Bearer ${token}`;
    return this.useBasic && this.credentials ? basicAuthorization(this.credentials) : undefined;
  }

  /** Reacts to a 401: fetches a bearer token or switches to Basic. False when there is nothing to retry with. */
  private async authenticate(res: Response, exchange: Exchange): Promise<boolean> {
    const challenge = parseChallenge(res.headers.get('www-authenticate') ?? '');
    const basic = challenge?.scheme === 'basic' && this.credentials !== undefined && !this.useBasic;
    if (challenge?.scheme !== 'bearer' && !basic) return false;
    await discard(res);
    if (challenge?.scheme === 'bearer') await this.fetchToken(challenge, exchange);
    else this.useBasic = true;
    return true;
  }

  /** Token flow of the distribution token spec: GET realm?service=&scope= (Basic with credentials, if any). */
  private async fetchToken(challenge: Challenge, exchange: Exchange): Promise<void> {
    const { realm = '', service, scope } = challenge.params;
    if (!URL.canParse(realm))
      throw new RegistryError('Unauthorized', `${exchange.what}: bearer challenge without a valid realm`);
    const url = new URL(realm);
    this.checkAllowed(url, exchange.what);
    if (url.protocol !== 'https:' && !this.plainHttp) {
      throw new RegistryError('HostNotAllowed', `${exchange.what}: token realm ${url.host} is not https`);
    }
    if (service) url.searchParams.set('service', service);
    url.searchParams.set('scope', scope ?? exchange.scope);
    const what = `${exchange.what}: token from ${url.host}`;
    const request: Exchange = {
      method: 'GET',
      url: url.href,
      scope: exchange.scope,
      what,
      headers: { accept: 'application/json' },
    };
    const res = await this.fetchOnce(url, request, this.credentials ? basicAuthorization(this.credentials) : undefined);
    const body = await res.text().catch((e: unknown) => {
      throw unavailable(what, e);
    });
    if (res.status !== 200) throw registryErrorFromStatus(res.status, what, registryCodesOf(body));
    const { token, expiresInSeconds } = tokenFromResponse(body, url.host);
    this.tokens.set(exchange.scope, token, expiresInSeconds);
  }
}
