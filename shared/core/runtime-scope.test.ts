import { describe, expect, it } from 'vitest';
import {
  namespaceOnRuntime,
  OWN_RUNTIME,
  remoteKymaRef,
  RUNTIME_NAMESPACE_ANNOTATION,
  scopeOfSecret,
} from './runtime-scope.ts';

describe('runtime scope', () => {
  it('is the whole runtime in kyma-system without the annotation (upstream)', () => {
    expect(scopeOfSecret('k', undefined)).toEqual({ namespace: 'kyma-system', shared: false });
    expect(scopeOfSecret('k', { other: 'x' })).toBe(OWN_RUNTIME);
    expect(remoteKymaRef(OWN_RUNTIME)).toEqual({
      apiVersion: 'operator.kyma-project.io/v1beta2',
      kind: 'Kyma',
      namespace: 'kyma-system',
      name: 'default',
    });
  });
  it('is one namespace of a shared API server with the annotation', () => {
    const scope = scopeOfSecret('k', { [RUNTIME_NAMESPACE_ANNOTATION]: 'tenant-0042' });
    expect(scope).toEqual({ namespace: 'tenant-0042', shared: true });
    expect(remoteKymaRef(scope).namespace).toBe('tenant-0042');
  });
  it('refuses a value that is no namespace name, naming the Secret and the annotation', () => {
    expect(() => scopeOfSecret('kyma-a', { [RUNTIME_NAMESPACE_ANNOTATION]: 'Tenant_1' })).toThrow(
      'kubeconfig Secret kyma-a: annotation lifecycle.kyma-project.io/runtime-namespace must be a namespace name (DNS-1123 label), got "Tenant_1"',
    );
    expect(() => scopeOfSecret('kyma-a', { [RUNTIME_NAMESPACE_ANNOTATION]: '' })).toThrow(/DNS-1123/);
  });
  it('keeps module namespaces on a runtime of its own and folds them into the scope on a shared one', () => {
    expect(namespaceOnRuntime(OWN_RUNTIME, 'istio-system', 'default')).toBe('istio-system');
    expect(namespaceOnRuntime(OWN_RUNTIME, undefined, 'default')).toBe('default');
    const shared = { namespace: 't-1', shared: true };
    expect(namespaceOnRuntime(shared, 'kyma-system', 'default')).toBe('t-1');
    expect(namespaceOnRuntime(shared, undefined, 'default')).toBe('t-1');
  });
});
