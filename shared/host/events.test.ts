import { describe, expect, it } from 'vitest';
import { InvalidEventError } from './errors.ts';
import { checksDrift, objectKeyOf, printable, RESYNC_DUE, type EventAttributes } from './events.ts';

const event = (extensions: Record<string, unknown>): EventAttributes => ({
  specversion: '1.0',
  id: 'e1',
  type: 'test.event',
  source: '/test',
  kind: 'Manifest',
  apiversion: 'operator.kyma-project.io/v1beta2',
  namespace: 'kcp-system',
  name: 'kyma-1-alpha',
  ...extensions,
});

describe('objectKeyOf', () => {
  it('reads the key of well-formed extensions, namespace optional', () => {
    expect(objectKeyOf(event({}))).toEqual({
      kind: 'Manifest',
      apiVersion: 'operator.kyma-project.io/v1beta2',
      namespace: 'kcp-system',
      name: 'kyma-1-alpha',
    });
    expect(
      objectKeyOf(event({ kind: 'Namespace', apiversion: 'v1', namespace: undefined, name: 'kyma-system' })).namespace,
    ).toBe('');
    expect(
      objectKeyOf(
        event({ kind: 'ClusterRole', apiversion: 'rbac.authorization.k8s.io/v1', name: 'system:aggregate-to-view' }),
      ).name,
    ).toBe('system:aggregate-to-view');
    expect(objectKeyOf(event({ apiversion: 'operator.kyma-project.io/v1alpha1' })).apiVersion).toBe(
      'operator.kyma-project.io/v1alpha1',
    );
  });

  it.each([
    ['a path in the name', { name: '../../api/v1/secrets' }, 'name'],
    ['a dot name', { name: '..' }, 'name'],
    ['upper case name', { name: 'Kyma-1' }, 'name'],
    ['a name over 253 characters', { name: 'a'.repeat(254) }, 'name'],
    ['a namespace with a dot', { namespace: 'kcp.system' }, 'namespace'],
    ['a namespace over 63 characters', { namespace: 'a'.repeat(64) }, 'namespace'],
    ['a lower-case kind', { kind: 'manifest' }, 'kind'],
    ['a kind with a slash', { kind: 'Manifest/status' }, 'kind'],
    ['an apiversion without version', { apiversion: 'operator.kyma-project.io' }, 'apiversion'],
    ['an apiversion with a path', { apiversion: 'a/b/v1' }, 'apiversion'],
    ['a query in the apiversion', { apiversion: 'v1?watch=true' }, 'apiversion'],
  ])('refuses %s with a 400 naming the extension', (_what, extensions, field) => {
    const thrown = (() => {
      try {
        objectKeyOf(event(extensions));
        return undefined;
      } catch (e) {
        return e;
      }
    })();
    expect(thrown).toBeInstanceOf(InvalidEventError);
    expect((thrown as InvalidEventError).status).toBe(400);
    expect((thrown as Error).message).toContain(field);
  });

  it('refuses missing or non-string extensions', () => {
    expect(() => objectKeyOf(event({ kind: undefined }))).toThrow(/lacks the kind\/apiversion\/name/);
    expect(() => objectKeyOf(event({ name: 42 }))).toThrow(/lacks/);
    expect(() => objectKeyOf(event({ namespace: {} }))).toThrow(/lacks/);
  });
});

describe('printable', () => {
  it('bounds attributes and strips control characters before they reach messages and logs', () => {
    expect(printable('a\nb\u0000c')).toBe('"a?b?c"');
    expect(printable('x'.repeat(500)).length).toBeLessThan(90);
    expect(printable(undefined)).toBe('"undefined"');
  });
});

describe('checksDrift (ADR 27)', () => {
  it("every resync.due checks drift but the resync's safety net for objects not Ready; other events never do", () => {
    expect(checksDrift(event({ type: RESYNC_DUE }))).toBe(true);
    expect(checksDrift(event({ type: RESYNC_DUE, resyncreason: 'drift', lifecyclelane: 'background' }))).toBe(true);
    expect(checksDrift(event({ type: RESYNC_DUE, lifecyclelane: 'user' }))).toBe(true);
    expect(checksDrift(event({ type: RESYNC_DUE, resyncreason: 'pending' }))).toBe(false);
    expect(checksDrift(event({ type: 'dev.knative.apiserver.resource.update' }))).toBe(false);
  });
});
