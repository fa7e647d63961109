import { RegistryError, badContent } from './errors.ts';

export interface Credentials {
  username: string;
  password: string;
}

/** A parsed `WWW-Authenticate` challenge (`Bearer realm="…",service="…",scope="…"` or `Basic realm="…"`). */
export interface Challenge {
  scheme: 'bearer' | 'basic';
  params: Record<string, string>;
}

export function parseChallenge(header: string): Challenge | undefined {
  const match = /^\s*(\w+)(?:\s+(.*))?$/s.exec(header);
  const scheme = match?.[1]?.toLowerCase();
  if (scheme !== 'bearer' && scheme !== 'basic') return undefined;
  const params: Record<string, string> = {};
  for (const [, key = '', quoted, bare] of (match?.[2] ?? '').matchAll(
    /([\w-]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,"]*))/g,
  )) {
    params[key.toLowerCase()] = quoted === undefined ? (bare ?? '') : quoted.replace(/\\(.)/g, '$1');
  }
  return { scheme, params };
}

export const basicAuthorization = ({ username, password }: Credentials) =>
  `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;

/** Credentials for `host` from the `.dockerconfigjson` of a `kubernetes.io/dockerconfigjson` Secret: either
 * `auths[host].auth` (base64 `user:password`) or `auths[host].username`/`password`. Keys may carry a scheme
 * and path (`https://host/v1/`). Undefined when the file has no entry for the host. */
export function credentialsFromDockerConfig(dockerConfigJson: string, host: string): Credentials | undefined {
  let config: { auths?: Record<string, { auth?: unknown; username?: unknown; password?: unknown }> };
  try {
    config = JSON.parse(dockerConfigJson) as typeof config;
  } catch {
    throw badContent('.dockerconfigjson is not valid JSON');
  }
  const entry = Object.entries(config.auths ?? {}).find(([key]) => registryKey(key) === registryKey(host))?.[1];
  if (!entry) return undefined;
  if (typeof entry.username === 'string' && typeof entry.password === 'string' && entry.username) {
    return { username: entry.username, password: entry.password };
  }
  const decoded = typeof entry.auth === 'string' ? Buffer.from(entry.auth, 'base64').toString('utf8') : '';
  const colon = decoded.indexOf(':');
  if (colon <= 0) throw badContent(`.dockerconfigjson entry for ${host} has neither "auth" nor username and password`);
  return { username: decoded.slice(0, colon), password: decoded.slice(colon + 1) };
}

const DOCKER_HUB = new Set(['docker.io', 'index.docker.io', 'registry-1.docker.io']);

function registryKey(key: string): string {
  const host = key
    .replace(/^[a-z]+:\/\//i, '')
    .replace(/\/.*$/, '')
    .toLowerCase();
  return DOCKER_HUB.has(host) ? 'docker.io' : host;
}

/** The token of a token-service answer (`token` or `access_token`) and how long it may be used. */
export function tokenFromResponse(body: string, realmHost: string): { token: string; expiresInSeconds: number } {
  let parsed: { token?: unknown; access_token?: unknown; expires_in?: unknown };
  try {
    parsed = JSON.parse(body) as typeof parsed;
  } catch {
    throw new RegistryError('Unauthorized', `token service ${realmHost} answered with invalid JSON`);
  }
  const token = typeof parsed.token === 'string' && parsed.token ? parsed.token : parsed.access_token;
  if (typeof token !== 'string' || !token)
    throw new RegistryError('Unauthorized', `token service ${realmHost} returned no token`);
  const expires = typeof parsed.expires_in === 'number' && parsed.expires_in > 0 ? parsed.expires_in : 60;
  return { token, expiresInSeconds: expires };
}

/** Bearer tokens per scope (`repository:<repo>:pull`), dropped a few seconds before they expire. */
export class TokenCache {
  private readonly tokens = new Map<string, { token: string; expiresAt: number }>();
  private readonly now: () => number;

  constructor(now: () => number = Date.now) {
    this.now = now;
  }

  get(scope: string): string | undefined {
    const entry = this.tokens.get(scope);
    if (entry && entry.expiresAt > this.now()) return entry.token;
    this.tokens.delete(scope);
    return undefined;
  }

  set(scope: string, token: string, expiresInSeconds: number): void {
    this.tokens.set(scope, { token, expiresAt: this.now() + Math.max(expiresInSeconds - 5, 1) * 1000 });
  }
}
