import { describe, expect, it } from 'vitest';
import { aManifest } from '../../test/builders.ts';
import type { Manifest } from '../../shared/core/manifest.ts';
import { inSyncedLayer } from './sync.ts';

const manifest = (recorded: string | undefined, opts: { deleting?: boolean; ref?: string } = {}): Manifest =>
  aManifest({
    name: 'm',
    ...(recorded ? { annotations: { 'sync-oci-ref': recorded } } : {}),
    deleting: opts.deleting === true,
    spec: {
      install: { name: 'raw-manifest', source: { repo: 'r', name: 'n', ref: opts.ref ?? 'sha256:1', type: 'oci-dir' } },
    },
  });

describe("inSyncedLayer (upstream's sync-oci-ref guard, ADR 40)", () => {
  it('holds when the layer is the one last fully synced: a difference is reported, never pruned', () => {
    expect(inSyncedLayer(manifest('sha256:1'))).toBe(true);
  });

  it.each([
    ['a new layer (an upgrade prunes what it dropped)', manifest('sha256:0')],
    ['no record (a Manifest made before the guard)', manifest(undefined)],
    ['the Manifest being deleted (its removal prunes everything)', manifest('sha256:1', { deleting: true })],
  ])('does not hold for %s', (_, m) => {
    expect(inSyncedLayer(m)).toBe(false);
  });

  it('does not hold for a module made of Helm charts (no raw-manifest layer)', () => {
    expect(inSyncedLayer({ ...manifest('sha256:1'), spec: { installs: [] } })).toBe(false);
  });
});
