import { describe, expect, it } from 'vitest';
import { ANNOTATION } from '../core/vocabulary.ts';
import type { KubeClient } from '../kube/client.ts';
import { withAppliedHash } from '../kube/apply-current.ts';
import { applyAll } from './apply.ts';
import { keptMessage, sameAsHolder, type Ownership } from './ownership.ts';
import { prepare, type RuntimeObject } from './render.ts';

const role = (resources: string[]): RuntimeObject => ({
  apiVersion: 'rbac.authorization.k8s.io/v1',
  kind: 'ClusterRole',
  metadata: { name: 'reader', labels: { team: 'a' } },
  rules: [{ apiGroups: [''], resources, verbs: ['get'] }],
});
const forManifest = (object: RuntimeObject, name: string) =>
  prepare([object], { name, namespace: 'kcp-system' }, () => false)[0] as RuntimeObject;
/** What the API server stores when manifest `holder` applied `object`: its applied-hash and fields the server adds. */
const storedBy = (object: RuntimeObject, holder: string): RuntimeObject => {
  const applied = withAppliedHash(forManifest(object, holder));
  return { ...applied, metadata: { ...applied.metadata, resourceVersion: '7', uid: 'u' } as RuntimeObject['metadata'] };
};

describe('an object another module holds (ADR 33)', () => {
  it("is what this module ships when both ship it alike, but for the holder's owned-by and component", () => {
    expect(sameAsHolder(storedBy(role(['pods']), 'holder'), forManifest(role(['pods']), 'other'))).toBe(true);
  });

  it('differs when the holder ships other content, or someone changed it since', () => {
    expect(sameAsHolder(storedBy(role(['secrets']), 'holder'), forManifest(role(['pods']), 'other'))).toBe(false);
    const edited = storedBy(role(['pods']), 'holder');
    expect(
      sameAsHolder(
        { ...edited, rules: [{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list'] }] },
        forManifest(role(['pods']), 'other'),
      ),
    ).toBe(false);
    expect(
      sameAsHolder(
        {
          ...edited,
          metadata: {
            ...edited.metadata,
            annotations: { ...edited.metadata.annotations, [ANNOTATION.appliedHash]: 'x' },
          },
        },
        forManifest(role(['pods']), 'other'),
      ),
    ).toBe(false);
  });

  it('is left to its holder without a warning when alike, with one when it differs; never written', async () => {
    const holdsIt: Ownership = {
      keptBy: (live) => Promise.resolve(keptMessage(live, { manifest: 'kcp-system/holder', module: 'one' })),
      shippedElsewhere: () => Promise.resolve(true),
    };
    const writes: unknown[] = [];
    const runtimeWith = (live: RuntimeObject) =>
      ({
        get: () => Promise.resolve(live),
        apply: (o: unknown) => {
          writes.push(o);
          return Promise.resolve(o);
        },
      }) as unknown as KubeClient;
    const alike = await applyAll(
      runtimeWith(storedBy(role(['pods']), 'holder')),
      [forManifest(role(['pods']), 'other')],
      { fieldManager: 'm', ownership: holdsIt },
    );
    expect(alike).toMatchObject({ kept: [] });
    const different = await applyAll(
      runtimeWith(storedBy(role(['secrets']), 'holder')),
      [forManifest(role(['pods']), 'other')],
      { fieldManager: 'm', ownership: holdsIt },
    );
    expect(different).toMatchObject({
      kept: [
        'ClusterRole reader is shipped by module one too (Manifest kcp-system/holder), which keeps it: left as that module applied it',
      ],
    });
    expect(writes).toEqual([]);
  });
});
