import { describe, expect, it } from 'vitest';
import { kyma, manifest, NOW, SYNCED } from '../../test/status-builders.ts';
import { aggregate, aggregateSteps, AWAITING_RUNTIME_KYMA, ignoreReason, type AggregateView } from './decide.ts';

describe('the steps of aggregate-status, in order', () => {
  it.each([
    ['a Kyma gone', undefined, false, 'gone'],
    [
      'a Kyma being deleted (purge reports it)',
      { ...kyma([]), metadata: { name: 'k1', deletionTimestamp: 'x' } },
      false,
      'deleting',
    ],
    [
      'a Kyma that skips reconciliation',
      { ...kyma([]), metadata: { name: 'k1', labels: { 'operator.kyma-project.io/skip-reconciliation': 'true' } } },
      false,
      'skip-reconciliation',
    ],
    ['the echo of our own status write', kyma([]), true, 'own status write'],
  ])('leaves the status alone for %s', (_, k, echo, why) => {
    expect(ignoreReason(k, echo)).toEqual({ step: 'Ignore', why });
  });

  const ready = aggregate(kyma([{ name: 'a' }]), [manifest('a', 'Ready')], NOW, SYNCED);
  const steady = kyma([{ name: 'a' }], ready);
  const view = (extra: Partial<AggregateView>): AggregateView => ({
    kyma: steady,
    manifests: [manifest('a', 'Ready')],
    inCluster: false,
    now: NOW,
    runtimeSide: { sync: SYNCED, runtime: true, watcherRemoved: false },
    ...extra,
  });
  const steps = (v: AggregateView) => aggregateSteps(v).map((s) => s.step);

  it.each([
    ['a Kyma event, all as before: the mirror only (it repairs a failed one)', view({}), ['MirrorStatus']],
    [
      'a module went Processing: written, then mirrored',
      view({ manifests: [manifest('a', 'Processing')] }),
      ['WriteStatus', 'MirrorStatus'],
    ],
    [
      "upstream's watcher removed first, a runtime side pending last and not mirrored",
      view({
        manifests: [manifest('a', 'Processing')],
        runtimeSide: { sync: SYNCED, runtime: true, watcherRemoved: true, pending: 'CRDs not established' },
      }),
      ['ReportWatcherRemoved', 'WriteStatus', 'RetryPending'],
    ],
    [
      'a Kyma event whose runtime cannot be reached: no mirror',
      view({ runtimeSide: { sync: { unreachable: 'refused' }, runtime: false, watcherRemoved: false } }),
      ['WriteStatus'],
    ],
    ['a Manifest event, nothing changed: nothing', view({ runtimeSide: undefined }), []],
    [
      'a Manifest event that changed the status: written and mirrored, the runtime looked up',
      view({ runtimeSide: undefined, manifests: [manifest('a', 'Error', 'boom')] }),
      ['WriteStatus', 'MirrorStatus'],
    ],
    [
      'a single-cluster Kyma on a Manifest event: written, nothing to mirror',
      view({ runtimeSide: undefined, inCluster: true, manifests: [manifest('a', 'Error', 'boom')] }),
      ['WriteStatus'],
    ],
  ])('%s', (_, v, expected) => {
    expect(steps(v)).toEqual(expected);
  });

  it('holds a Kyma resolved from the KCP spec (no Kyma CRD on the runtime then) at Processing until its runtime Kyma exists; an in-cluster Kyma has none (ADR 74)', () => {
    const fromKcp = kyma([{ name: 'a' }], { ...ready, specSource: { from: 'kcp', channel: 'regular' } });
    const written = (v: AggregateView) => aggregateSteps(v).find((s) => s.step === 'WriteStatus');
    expect(written(view({ kyma: fromKcp }))).toMatchObject({
      status: { state: 'Processing', lastOperation: { operation: AWAITING_RUNTIME_KYMA } },
    });
    expect(written(view({ kyma: fromKcp, runtimeSide: undefined })), 'a Manifest event alike').toMatchObject({
      status: { state: 'Processing' },
    });
    expect(written(view({ kyma: fromKcp, inCluster: true })), 'in-cluster: Ready as before').toBeUndefined();
    const side = { sync: { crds: SYNCED.crds }, runtime: false, watcherRemoved: false };
    expect(written(view({ kyma: fromKcp, runtimeSide: side })), 'its catalog not pushed (ADR 78)').toMatchObject({
      status: { state: 'Processing', lastOperation: { operation: AWAITING_RUNTIME_KYMA } },
    });
    const failing = written(view({ kyma: fromKcp, manifests: [manifest('a', 'Error', 'boom')] }));
    expect(failing, "a module's Error is reported as such").toMatchObject({ status: { state: 'Error' } });
  });

  it('looks the runtime up only on a Manifest event', () => {
    expect(
      aggregateSteps(view({ runtimeSide: undefined, manifests: [manifest('a', 'Error', 'boom')] })).at(-1),
    ).toEqual({ step: 'MirrorStatus', lookUpRuntime: true, statusWritten: true });
    expect(aggregateSteps(view({})).at(-1)).toEqual({
      step: 'MirrorStatus',
      lookUpRuntime: false,
      statusWritten: false,
    });
  });

  it('says whether the status to mirror is the one this call wrote (ADR 77: another writer mirrored its own)', () => {
    const mirrorOf = (v: AggregateView) => aggregateSteps(v).find((s) => s.step === 'MirrorStatus');
    expect(mirrorOf(view({ manifests: [manifest('a', 'Processing')] }))).toMatchObject({ statusWritten: true });
    expect(mirrorOf(view({}))).toMatchObject({ statusWritten: false });
  });

  it("leaves a new Kyma's first status to the call its first resolution brings, for a minute at most (ADR 78)", () => {
    const created = (secondsAgo: number) => new Date(Date.parse(NOW) - secondsAgo * 1000).toISOString();
    const fresh = (secondsAgo: number) => ({
      ...kyma([]),
      metadata: { name: 'k1', creationTimestamp: created(secondsAgo) },
      status: {},
    });
    const side = { sync: { crds: SYNCED.crds }, runtime: false, watcherRemoved: false };
    expect(steps(view({ kyma: fresh(2), manifests: [], runtimeSide: side }))).toEqual([]);
    expect(steps(view({ kyma: fresh(2), manifests: [], runtimeSide: { ...side, watcherRemoved: true } }))).toEqual([
      'ReportWatcherRemoved',
    ]);
    expect(steps(view({ kyma: fresh(61), manifests: [], runtimeSide: side })), 'a minute on').toEqual(['WriteStatus']);
    const unreachable = { sync: { unreachable: 'refused' }, runtime: false, watcherRemoved: false };
    expect(steps(view({ kyma: fresh(2), manifests: [], runtimeSide: unreachable })), 'a reason to report').toEqual([
      'WriteStatus',
    ]);
    const pending = { ...side, pending: 'CRDs not established' };
    expect(steps(view({ kyma: fresh(2), manifests: [], runtimeSide: pending }))).toEqual([
      'WriteStatus',
      'RetryPending',
    ]);
    const written = { ...fresh(2), status: { state: 'Processing' as const } };
    expect(steps(view({ kyma: written, manifests: [], runtimeSide: side })), 'a status there already').toContain(
      'WriteStatus',
    );
  });
});
