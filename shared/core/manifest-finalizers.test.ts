import { describe, expect, it } from 'vitest';
import { aManifest } from '../../test/builders.ts';
import type { Manifest } from './manifest.ts';
import { installFinalizers, renderedFinalizers } from './manifest-finalizers.ts';

const manifest = (spec: NonNullable<Manifest['spec']>, finalizers?: string[]): Manifest =>
  aManifest({ spec, ...(finalizers ? { finalizers } : {}) });
const cr = { apiVersion: 'x/v1', kind: 'X', metadata: { name: 'x' } };

describe('installFinalizers', () => {
  it('adds the resource finalizer only when the Manifest creates and deletes a default CR', () => {
    expect(installFinalizers(manifest({ resource: cr }))).toEqual([
      'declarative.kyma-project.io/finalizer',
      'label-removal-finalizer',
      'resource.kyma-project.io/finalizer',
    ]);
    expect(installFinalizers(manifest({ resource: cr, customResourcePolicy: 'Ignore' }))).toEqual([
      'declarative.kyma-project.io/finalizer',
      'label-removal-finalizer',
    ]);
    expect(installFinalizers(manifest({ resource: null }))).toEqual([
      'declarative.kyma-project.io/finalizer',
      'label-removal-finalizer',
    ]);
  });
});

describe('renderedFinalizers', () => {
  it('creates a Manifest with all it needs', () => {
    expect(renderedFinalizers(undefined, manifest({ resource: cr }))).toHaveLength(3);
  });
  it('keeps on an update exactly our finalizers stored now: none added back, none dropped, foreign ones left to their owners', () => {
    const stored = manifest({ resource: cr }, ['declarative.kyma-project.io/finalizer', 'someone.else/keep']);
    expect(renderedFinalizers(stored, manifest({ resource: cr }))).toEqual(['declarative.kyma-project.io/finalizer']);
    expect(renderedFinalizers(manifest({}), manifest({ resource: cr }))).toEqual([]);
  });
});
