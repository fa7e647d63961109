import { describe, expect, it } from 'vitest';
import { aManifest } from '../../test/builders.ts';
import { nextApplyStep, OBSERVING, type ApplyView } from './decide.ts';

const manifest = aManifest;
const view = (extra: Partial<ApplyView> = {}): ApplyView => ({
  manifest: manifest(),
  deleted: false,
  echo: false,
  target: { kyma: 'k1' },
  access: 'usable',
  orphan: '',
  ...extra,
});
const unmanaged = manifest({ annotations: { 'operator.kyma-project.io/is-unmanaged': 'true' } });

describe('nextApplyStep (the order of apply-remote)', () => {
  it.each([
    [
      'a Manifest gone with its deletion event: its objects are handed over first',
      view({ manifest: undefined, deleted: true, access: undefined }),
      'HandOverObjects',
    ],
    ['then nothing is left to do', view({ manifest: undefined, deleted: true, handedOver: true }), 'Ignore'],
    ['a Manifest gone on any other event: nothing', view({ manifest: undefined }), 'Ignore'],
    [
      'skip-reconciliation: nothing, not even an echo check or a runtime',
      view({
        manifest: manifest({ labels: { 'operator.kyma-project.io/skip-reconciliation': 'true' } }),
        access: undefined,
        echo: true,
      }),
      'Ignore',
    ],
    ['the echo of our own status write: nothing', view({ echo: true, access: undefined }), 'Ignore'],
    ['then the runtime is connected', view({ access: undefined }), 'ConnectRuntime'],
    [
      'an unusable kubeconfig is reported before anything, unmanage included',
      view({ manifest: unmanaged, access: { failed: 'not a kubeconfig' } }),
      'ReportRuntimeUnusable',
    ],
    [
      'managed: false before the deletion',
      view({
        manifest: manifest({ annotations: { 'operator.kyma-project.io/is-unmanaged': 'true' }, deleting: true }),
      }),
      'Unmanage',
    ],
    [
      'a deleting Manifest is uninstalled, even without a runtime or with a refused target',
      view({
        manifest: manifest({ deleting: true }),
        access: { missing: 'no Secret' },
        target: { refused: 'in-cluster off' },
      }),
      'Uninstall',
    ],
    [
      'a refused target before the missing Secret',
      view({
        target: { refused: 'in-cluster installs disabled' },
        access: { missing: 'in-cluster installs disabled' },
      }),
      'RefuseTarget',
    ],
    ['no kubeconfig Secret', view({ access: { missing: 'kcp-system/k1' } }), 'ReportSecretMissing'],
    ['then its Kyma is checked', view({ orphan: undefined }), 'CheckOrphan'],
    [
      'an orphan is reported, not installed',
      view({ orphan: 'orphaned manifest detected: Kyma k1 does not exist' }),
      'ReportOrphan',
    ],
    ['else install', view(), 'Install'],
    [
      'a Manifest of its own (no Kyma label) is installed without an orphan check',
      view({
        manifest: aManifest({ name: 'own', labels: { 'operator.kyma-project.io/kyma-name': '' } }),
        orphan: undefined,
        target: { inCluster: true },
      }),
      'Install',
    ],
  ])('%s', (_, v, step) => {
    expect(nextApplyStep(v).step).toBe(step);
  });

  it('carries what the reporting steps say', () => {
    expect(nextApplyStep(view({ access: { failed: 'runtime of Kyma k1: refused' } }))).toEqual({
      step: 'ReportRuntimeUnusable',
      message: 'runtime of Kyma k1: refused',
    });
    expect(nextApplyStep(view({ access: { missing: 'kcp-system/k1' } }))).toEqual({
      step: 'ReportSecretMissing',
      missing: 'kcp-system/k1',
    });
    expect(nextApplyStep(view({ orphan: 'gone' }))).toEqual({ step: 'ReportOrphan', message: 'gone' });
  });

  it('a call ends: every observing step adds what makes the decision move on', () => {
    const observed: ApplyView[] = [
      view({ manifest: undefined, deleted: true, access: undefined }),
      view({ access: undefined, orphan: undefined }),
    ];
    for (const start of observed) {
      const seen: string[] = [];
      let v = start;
      for (let step = nextApplyStep(v); OBSERVING.has(step.step); step = nextApplyStep(v)) {
        seen.push(step.step);
        v =
          step.step === 'HandOverObjects'
            ? { ...v, handedOver: true }
            : step.step === 'ConnectRuntime'
              ? { ...v, access: 'usable' }
              : { ...v, orphan: '' };
        expect(seen.length).toBeLessThan(4);
      }
    }
  });
});
