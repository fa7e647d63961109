import { describe, expect, it } from 'vitest';
import type { Kyma } from '../../shared/core/kyma.ts';
import type { Manifest } from '../../shared/core/manifest.ts';
import { aKyma, aManifest, DELETED_AT } from '../../test/builders.ts';
import {
  blockingMessage,
  nextDeletionStep,
  nothingToPurge,
  requeueReasonOf,
  RUNTIME_KYMA_CRD,
  stillPurging,
  type DeletionView,
} from './decide.ts';

const DELETED = Date.parse(DELETED_AT);
const kyma = (state: 'Deleting' | undefined, finalizers = ['operator.kyma-project.io/Kyma']): Kyma =>
  aKyma({ finalizers, deleting: true, ...(state ? { status: { state } } : {}) });
const manifest = (module: string, deleting: boolean, operation?: string): Manifest =>
  aManifest({ module, deleting, ...(operation ? { state: 'Deleting' as const, operation } : {}) });
const view = (k: Kyma, manifests: Manifest[], extra: Partial<DeletionView> = {}): DeletionView => ({
  kyma: k,
  manifests,
  now: DELETED + 1000,
  gracePeriodMs: 300_000,
  ...extra,
});

describe('nextDeletionStep (one step per call, upstream order)', () => {
  it.each([
    ['state first', view(kyma(undefined), [manifest('a', false)]), 'SetKymaStateDeleting'],
    [
      "then the runtime Kyma Deleting (upstream's SetSkrKymaStateDeleting)",
      view(kyma('Deleting'), [manifest('a', false)], {
        runtime: { crds: [], remoteKyma: true, remoteKymaState: 'Ready' },
      }),
      'SetRuntimeKymaStateDeleting',
    ],
    ['then all Manifests', view(kyma('Deleting'), [manifest('a', false), manifest('b', true)]), 'DeleteManifests'],
    [
      'then all Manifests, the runtime Kyma Deleting already',
      view(kyma('Deleting'), [manifest('a', false)], {
        runtime: { crds: [], remoteKyma: true, remoteKymaState: 'Deleting' },
      }),
      'DeleteManifests',
    ],
    [
      'then the catalog copies on the runtime',
      view(kyma('Deleting'), [manifest('a', true)], {
        runtime: {
          crds: ['moduletemplates.operator.kyma-project.io'],
          remoteKyma: false,
          copies: [{ kind: 'ModuleTemplate', name: 'x-1.0.0' }],
        },
      }),
      'DeleteCatalogCopies',
    ],
    [
      'then the runtime catalog CRDs',
      view(kyma('Deleting'), [manifest('a', true)], {
        runtime: {
          crds: ['kymas.operator.kyma-project.io', 'moduletemplates.operator.kyma-project.io'],
          remoteKyma: true,
          remoteKymaState: 'Deleting',
        },
      }),
      'DeleteRuntimeCrd',
    ],
    [
      'then the remote Kyma',
      view(kyma('Deleting'), [manifest('a', true)], {
        runtime: { crds: ['kymas.operator.kyma-project.io'], remoteKyma: true, remoteKymaState: 'Deleting' },
      }),
      'DeleteRemoteKyma',
    ],
    [
      'then the Kyma CRD on the runtime',
      view(kyma('Deleting'), [manifest('a', true)], {
        runtime: { crds: ['kymas.operator.kyma-project.io'], remoteKyma: false },
      }),
      'DeleteRuntimeCrd',
    ],
    [
      'then wait for the Manifests',
      view(kyma('Deleting'), [manifest('a', true)], { runtime: { crds: [], remoteKyma: false } }),
      'WaitForManifests',
    ],
    [
      'purge once the grace period passed',
      view(kyma('Deleting'), [manifest('a', true)], {
        runtime: { crds: [], remoteKyma: false },
        now: DELETED + 300_000,
      }),
      'PurgeModuleCrFinalizers',
    ],
    [
      'no purge without a runtime',
      view(kyma('Deleting'), [manifest('a', true)], { now: DELETED + 300_000 }),
      'WaitForManifests',
    ],
    [
      'no purge with grace period 0',
      view(kyma('Deleting'), [manifest('a', true)], {
        runtime: { crds: [], remoteKyma: false },
        now: DELETED + 10e9,
        gracePeriodMs: 0,
      }),
      'WaitForManifests',
    ],
    ['finally drop the finalizer', view(kyma('Deleting'), []), 'DropKymaFinalizer'],
  ])('%s', (_, v, step) => {
    expect(nextDeletionStep(v, false)?.step).toBe(step);
  });

  it('drops ours and the historical purge finalizer, keeps everybody else finalizers', () => {
    const step = nextDeletionStep(
      view(
        kyma('Deleting', [
          'foregroundDeletion',
          'operator.kyma-project.io/Kyma',
          'operator.kyma-project.io/purge-finalizer',
        ]),
        [],
      ),
      false,
    );
    expect(step).toEqual({ step: 'DropKymaFinalizer', finalizers: ['foregroundDeletion'] });
    expect(nextDeletionStep(view(kyma('Deleting', ['foregroundDeletion']), []), false)).toBeUndefined();
  });

  it('after a purge that found nothing to strip, waits', () => {
    expect(
      nextDeletionStep(
        view(kyma('Deleting'), [manifest('a', true)], {
          runtime: { crds: [], remoteKyma: false },
          now: DELETED + 300_000,
        }),
        true,
      )?.step,
    ).toBe('WaitForManifests');
  });

  it('says exactly what blocks', () => {
    expect(
      blockingMessage([
        manifest('sample', true, 'waiting for module crs deletion: Sample team-a/mine [finalizers: x/y]'),
        manifest('other', true),
      ]),
    ).toBe(
      'waiting for modules to be deleted: sample (waiting for module crs deletion: Sample team-a/mine [finalizers: x/y]); other',
    );
  });
});

describe("requeueReasonOf (upstream's names, ADR 40)", () => {
  it("names each step's retry as upstream's deletion does", () => {
    expect(requeueReasonOf({ step: 'SetKymaStateDeleting' })).toBe('kyma_status_update_to_deleting');
    expect(requeueReasonOf({ step: 'DeleteManifests', names: ['m'] })).toBe('kyma_deletion');
    expect(requeueReasonOf({ step: 'DeleteRuntimeCrd', name: 'moduletemplates.operator.kyma-project.io' })).toBe(
      'remote_module_catalog_deletion',
    );
    expect(requeueReasonOf({ step: 'DeleteRuntimeCrd', name: RUNTIME_KYMA_CRD })).toBe('remote_kyma_deletion');
    expect(requeueReasonOf({ step: 'WaitForManifests', message: 'x' })).toBe('kyma_deletion');
    expect(requeueReasonOf({ step: 'DropKymaFinalizer', finalizers: [] })).toBe('labels_and_finalizers_update');
  });
});

describe('nothingToPurge (no read for a Kyma that is not being deleted)', () => {
  const kyma = aKyma();
  const deleting = aKyma({ deleting: true });
  it('skips an add or update whose Kyma has no deletionTimestamp', () => {
    expect(nothingToPurge('Kyma', true, kyma)).toBe(true);
  });
  it('reads on: a deleting Kyma, a deletion, a resync without data, a Manifest', () => {
    expect(nothingToPurge('Kyma', true, deleting)).toBe(false);
    expect(nothingToPurge('Kyma', false, kyma)).toBe(false);
    expect(nothingToPurge('Kyma', true, undefined)).toBe(false);
    expect(nothingToPurge('Kyma', true, { metadata: null })).toBe(false);
    expect(nothingToPurge('Kyma', true, 'not an object')).toBe(false);
    expect(nothingToPurge('Manifest', true, aManifest())).toBe(false);
  });
});

describe('stillPurging (a runtime step confirms the Kyma live first, ADR 70)', () => {
  const OUR = 'operator.kyma-project.io/Kyma';
  const seen = aKyma({ uid: 'u1', deleting: true, finalizers: [OUR] });
  it('goes on while the same Kyma is still being deleted and still held by our finalizer', () => {
    expect(stillPurging(seen, aKyma({ uid: 'u1', deleting: true, finalizers: ['other', OUR] }))).toBe(true);
  });
  it('stops once the deletion is finished: gone, our finalizer dropped, another Kyma of that name, not deleting', () => {
    expect(stillPurging(seen, undefined)).toBe(false);
    expect(stillPurging(seen, aKyma({ uid: 'u1', deleting: true, finalizers: ['other'] }))).toBe(false);
    expect(stillPurging(seen, aKyma({ uid: 'u2', deleting: true, finalizers: [OUR] }))).toBe(false);
    expect(stillPurging(seen, aKyma({ uid: 'u2', finalizers: [OUR] }))).toBe(false);
  });
});
