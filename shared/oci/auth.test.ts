import { describe, expect, it } from 'vitest';
import { credentialsFromDockerConfig, parseChallenge, TokenCache, tokenFromResponse } from './auth.ts';

const b64 = (s: string) => Buffer.from(s).toString('base64');

describe('parseChallenge', () => {
  it.each([
    [
      'Bearer realm="https://auth.example/token",service="registry.example",scope="repository:org/repo:pull"',
      {
        scheme: 'bearer',
        params: { realm: 'https://auth.example/token', service: 'registry.example', scope: 'repository:org/repo:pull' },
      },
    ],
    [
      'bearer realm="https://a/t", scope="repository:a:pull repository:b:pull"',
      { scheme: 'bearer', params: { realm: 'https://a/t', scope: 'repository:a:pull repository:b:pull' } },
    ],
    ['Basic realm="Registry Realm"', { scheme: 'basic', params: { realm: 'Registry Realm' } }],
    ['Bearer realm=https://a/t,service=reg', { scheme: 'bearer', params: { realm: 'https://a/t', service: 'reg' } }],
  ])('parses %s', (header, challenge) => expect(parseChallenge(header)).toEqual(challenge));

  it.each(['', 'Negotiate abc', 'Digest realm="x"'])('ignores %j', (header) =>
    expect(parseChallenge(header)).toBeUndefined(),
  );
});

describe('credentialsFromDockerConfig', () => {
  const config = JSON.stringify({
    auths: {
      'https://registry.example:5000/v1/': { auth: b64('robot:pa:ss') },
      'other.example': { username: 'u', password: 'p' },
      'https://index.docker.io/v1/': { auth: b64('hub:secret') },
      'broken.example': { auth: b64('no-colon') },
    },
  });

  it.each([
    ['registry.example:5000', { username: 'robot', password: 'pa:ss' }],
    ['other.example', { username: 'u', password: 'p' }],
    ['docker.io', { username: 'hub', password: 'secret' }],
    ['unknown.example', undefined],
  ])('finds the entry of %s', (host, credentials) =>
    expect(credentialsFromDockerConfig(config, host)).toEqual(credentials),
  );

  it('rejects unusable entries without echoing them', () => {
    expect(() => credentialsFromDockerConfig(config, 'broken.example')).toThrow(/neither "auth" nor username/);
    expect(() => credentialsFromDockerConfig('{"auths": secret', 'x')).toThrow(
      expect.objectContaining({
        code: 'BadContent',
        message: expect.not.stringContaining('secret'),
      }),
    );
  });
});

describe('tokens', () => {
  it.each([
    ['{"token":"t1","expires_in":300}', { token: 't1', expiresInSeconds: 300 }],
    ['{"access_token":"t2"}', { token: 't2', expiresInSeconds: 60 }],
  ])('reads %s', (body, token) => expect(tokenFromResponse(body, 'auth.example')).toEqual(token));

  it('rejects answers without a token', () => {
    expect(() => tokenFromResponse('{}', 'auth.example')).toThrow(expect.objectContaining({ code: 'Unauthorized' }));
  });

  it('caches a token per scope until shortly before it expires', () => {
    let now = 0;
    const cache = new TokenCache(() => now);
    cache.set('repository:a:pull', 't', 60);
    expect(cache.get('repository:a:pull')).toBe('t');
    expect(cache.get('repository:b:pull')).toBeUndefined();
    now = 54_000;
    expect(cache.get('repository:a:pull')).toBe('t');
    now = 55_000;
    expect(cache.get('repository:a:pull')).toBeUndefined();
  });
});
