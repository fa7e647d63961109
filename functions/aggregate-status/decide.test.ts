import { describe, expect, it } from 'vitest';
import { kyma, manifest, NOW, SYNCED } from '../../test/status-builders.ts';
import { runtimeUnreachable, type Kyma, type ModuleStatus } from '../../shared/core/kyma.ts';
import type { State } from '../../shared/core/objects.ts';
import { aggregate, catalogDue, kymaState, ownedPart, runtimeSideChanged } from './decide.ts';

describe('kymaState', () => {
  const m = (...states: State[]): ModuleStatus[] => states.map((state, i) => ({ name: `m${i}`, state }));
  const ok = [{ type: 'Modules', status: 'True' as const, reason: 'Ready', message: '' }];
  it.each([
    [m('Ready', 'Error', 'Warning'), 'Error'],
    [m('Ready', 'Warning', 'Processing'), 'Warning'],
    [m('Ready', 'Processing'), 'Processing'],
    [m('Ready', 'Unmanaged'), 'Ready'],
  ])('%j → %s', (modules, state) => {
    expect(kymaState(modules, ok)).toBe(state);
  });

  it('is Processing while a module is Deleting (the Modules condition is False)', () => {
    expect(
      kymaState(m('Ready', 'Deleting'), [{ type: 'Modules', status: 'False', reason: 'Ready', message: '' }]),
    ).toBe('Processing');
  });
});

describe('aggregate', () => {
  it('reports Ready with manifest and default CR references and the active channel', () => {
    const status = aggregate(kyma([{ name: 'sample' }]), [manifest('sample', 'Ready')], NOW, SYNCED);
    expect(status).toMatchObject({
      state: 'Ready',
      activeChannel: 'regular',
      lastOperation: { operation: 'kyma is ready' },
    });
    expect(status.modules).toEqual([
      {
        name: 'sample',
        state: 'Ready',
        version: '1.0.0',
        manifest: {
          apiVersion: 'operator.kyma-project.io/v1beta2',
          kind: 'Manifest',
          metadata: { name: 'k1-sample', namespace: 'kcp-system', generation: 1 },
        },
        resource: { apiVersion: 'x/v1', kind: 'Sample', metadata: { name: 's', namespace: 'kyma-system' } },
      },
    ]);
  });

  it('shows a resolution error on the module and the Kyma, naming the module', () => {
    const k = kyma([{ name: 'sample' }], {
      modules: [{ name: 'sample', resolution: { state: 'Error', message: 'no channels found for module sample' } }],
    });
    const status = aggregate(k, [], NOW);
    expect(status.state).toBe('Error');
    expect(status.modules?.[0]).toEqual({
      name: 'sample',
      state: 'Error',
      message: 'no channels found for module sample',
    });
    expect(status.lastOperation?.operation).toBe('module sample: no channels found for module sample');
  });

  it('keeps an entry for a module being removed while its Manifest exists', () => {
    const status = aggregate(kyma([]), [manifest('old', 'Deleting', 'deleting')], NOW);
    expect(status.modules).toMatchObject([{ name: 'old', state: 'Deleting', message: 'deleting' }]);
    expect(status.state).toBe('Processing');
  });

  it('reports Processing while the Manifest status still describes an older generation (an upgrade in flight)', () => {
    const m = manifest('sample', 'Ready');
    m.metadata.generation = 2;
    m.status = {
      ...m.status,
      conditions: [{ type: 'Installation', status: 'True', reason: 'Ready', message: '', observedGeneration: 1 }],
    };
    expect(aggregate(kyma([{ name: 'sample' }]), [m], NOW).modules?.[0]).toMatchObject({
      state: 'Processing',
      message: 'waiting for version 1.0.0 to be applied',
    });
  });

  it('stays Processing until the runtime CRDs and catalog were synced once (conditions Unknown)', () => {
    const status = aggregate(kyma([{ name: 'sample' }]), [manifest('sample', 'Ready')], NOW);
    expect(status.state).toBe('Processing');
    expect(status.conditions?.map((c) => [c.type, c.status])).toEqual([
      ['CRDsSync', 'Unknown'],
      ['Modules', 'True'],
      ['ModuleCatalog', 'Unknown'],
    ]);
  });

  it("has upstream's SKRImagePullSecretSync condition only where an image pull Secret is synced (or was), False while its sync is pending, Unknown while the runtime cannot be reached", () => {
    expect(
      aggregate(kyma([{ name: 'sample' }]), [manifest('sample', 'Ready')], NOW, SYNCED).conditions?.map((c) => c.type),
    ).toEqual(['CRDsSync', 'Modules', 'ModuleCatalog']);
    const synced = aggregate(kyma([{ name: 'sample' }]), [manifest('sample', 'Ready')], NOW, {
      ...SYNCED,
      pullSecret: { ok: true, message: 'image pull Secret p synced to the runtime' },
    });
    expect(synced.state).toBe('Ready');
    expect(synced.conditions?.find((c) => c.type === 'SKRImagePullSecretSync')).toMatchObject({
      status: 'True',
      message: 'image pull Secret p synced to the runtime',
    });
    const pending = aggregate(kyma([{ name: 'sample' }], synced), [manifest('sample', 'Ready')], NOW, {
      ...SYNCED,
      pullSecret: { ok: false, message: 'sync pending: 503' },
    });
    expect(pending.state).toBe('Processing');
    const unreachable = aggregate(kyma([{ name: 'sample' }], synced), [manifest('sample', 'Ready')], NOW, {
      unreachable: 'runtime of Kyma k1 unreachable',
    });
    expect(unreachable.conditions?.find((c) => c.type === 'SKRImagePullSecretSync')?.status).toBe('Unknown');
  });

  it("leaves what an unreachable runtime keeps it from evaluating Unknown, as upstream's pass that stops early (ADR 40)", () => {
    const status = aggregate(kyma([{ name: 'sample' }]), [manifest('sample', 'Ready')], NOW, {
      unreachable: 'runtime of Kyma k1 unreachable: connect ECONNREFUSED',
    });
    const of = (type: string) => status.conditions?.find((c) => c.type === type);
    expect(of('CRDsSync')).toMatchObject({
      status: 'Unknown',
      message: 'runtime of Kyma k1 unreachable: connect ECONNREFUSED',
    });
    expect(of('ModuleCatalog')?.status).toBe('Unknown');
    expect(of('Modules')?.status).toBe('False');
  });

  it('marks every module and the Kyma Error, naming the runtime, when the runtime is unreachable', () => {
    const status = aggregate(kyma([{ name: 'sample' }]), [manifest('sample', 'Ready')], NOW, {
      unreachable: 'runtime of Kyma k1 unreachable: connect ECONNREFUSED',
    });
    expect(status.state).toBe('Error');
    expect(status.modules?.[0]).toMatchObject({
      state: 'Error',
      message: 'runtime of Kyma k1 unreachable: connect ECONNREFUSED',
    });
    expect(status.lastOperation?.operation).toBe('runtime of Kyma k1 unreachable: connect ECONNREFUSED');
  });

  it('is read back as "runtime unreachable" by the fleet (its gauge and alert), and nothing else is', () => {
    const as = (status: NonNullable<Kyma['status']>) => runtimeUnreachable({ ...kyma([{ name: 'sample' }]), status });
    const base = kyma([{ name: 'sample' }]);
    const unreachable = aggregate(base, [manifest('sample', 'Ready')], NOW, {
      unreachable: 'runtime of Kyma k1 unreachable',
    });
    expect(as(unreachable)).toBe(true);
    expect(as(aggregate(base, [manifest('sample', 'Ready')], NOW, SYNCED))).toBe(false);
    expect(as(aggregate(base, [manifest('sample', 'Error')], NOW, SYNCED))).toBe(false);
    expect(as(aggregate(kyma([]), [], NOW))).toBe(false);
    const healed = { ...base, status: unreachable };
    expect(as(aggregate(healed, [manifest('sample', 'Ready')], NOW, SYNCED))).toBe(false);
  });

  it('never claims the modules Ready without having seen them: unreachable with no entries → Modules False naming the runtime; not resolved yet → Unknown', () => {
    const lost = 'runtime of Kyma k1: kubeconfig Secret k1 of Kyma k1 does not hold a usable kubeconfig';
    const unreachable = aggregate(kyma([]), [], NOW, { unreachable: lost });
    expect(unreachable.state).toBe('Error');
    expect(unreachable.conditions?.find((c) => c.type === 'Modules')).toMatchObject({ status: 'False', message: lost });
    const unresolved = aggregate({ ...kyma([]), status: {} }, [], NOW, SYNCED);
    expect(unresolved.conditions?.find((c) => c.type === 'Modules')?.status).toBe('Unknown');
    expect(aggregate(kyma([]), [], NOW, SYNCED).conditions?.find((c) => c.type === 'Modules')).toMatchObject({
      status: 'True',
      message: 'all modules are in ready state',
    });
  });

  it('never shows a module Ready while its Manifest is being deleted: Deleting, and the Kyma not Ready (issue 34)', () => {
    const going = {
      ...manifest('sample', 'Ready', 'resources are ready'),
      metadata: { ...manifest('sample', 'Ready').metadata, deletionTimestamp: NOW },
    };
    const status = aggregate(kyma([]), [going], NOW, SYNCED);
    expect(status.modules?.[0]?.state).toBe('Deleting');
    expect(status.state).toBe('Processing');
  });

  it('reports unmanaged modules as Unmanaged without references', () => {
    expect(aggregate(kyma([{ name: 'sample', managed: false }]), [manifest('sample', 'Ready')], NOW).modules).toEqual([
      { name: 'sample', state: 'Unmanaged' },
    ]);
  });

  it('writes nothing new on a second pass: timestamps are kept and the owned part is equal', () => {
    const first = aggregate(kyma([{ name: 'sample' }]), [manifest('sample', 'Ready')], NOW, SYNCED);
    const second = aggregate(kyma([{ name: 'sample' }], first), [manifest('sample', 'Ready')], '2026-11-22T13:00:00Z');
    expect(second).toEqual(first);
    expect(ownedPart(second)).toBe(ownedPart(first));
  });

  it("takes upstream's `maintenance: false` in a module entry as the same as none (a takeover writes nothing for it, ADR 40)", () => {
    const ours = aggregate(kyma([{ name: 'sample' }]), [manifest('sample', 'Ready')], NOW, SYNCED);
    const upstreams = { ...ours, modules: (ours.modules ?? []).map((m) => ({ ...m, maintenance: false })) };
    expect(ownedPart(upstreams)).toBe(ownedPart(ours));
    expect(ownedPart({ ...ours, modules: (ours.modules ?? []).map((m) => ({ ...m, maintenance: true })) })).not.toBe(
      ownedPart(ours),
    );
  });
});

describe('catalogDue (ADR 78)', () => {
  const base = kyma([{ name: 'sample' }]);
  const withSource = (from?: 'runtime' | 'kcp'): Kyma => {
    const { specSource, ...rest } = base.status ?? {};
    return { ...base, status: from && specSource ? { ...rest, specSource: { ...specSource, from } } : rest };
  };
  it('is due once the module list came from the runtime Kyma: resolve-template created it and its namespace', () => {
    expect(catalogDue(withSource('runtime'))).toBe(true);
  });
  it('waits while the Kyma is not resolved yet or its list came from the KCP spec (no runtime Kyma yet)', () => {
    expect(catalogDue(withSource())).toBe(false);
    expect(catalogDue(withSource('kcp'))).toBe(false);
  });
  it('a Kyma resolved from its runtime Kyma while the runtime side ran wants the side again (ADR 82)', () => {
    // The side synced the CRDs only for the Kyma as first read; re-read, its catalog is due: push it in this call.
    expect(runtimeSideChanged(withSource('kcp'), withSource('runtime'), false)).toBe(true);
    expect(runtimeSideChanged(withSource(), withSource('runtime'), false)).toBe(true);
    expect(runtimeSideChanged(withSource('runtime'), withSource('kcp'), false)).toBe(true);
    // Nothing the side depends on changed: no second pass.
    expect(runtimeSideChanged(withSource('runtime'), withSource('runtime'), false)).toBe(false);
    expect(runtimeSideChanged(withSource(), withSource(), false)).toBe(false);
    // In-cluster, the KCP spec is the list: no runtime Kyma is awaited, no catalog pushed either way.
    expect(runtimeSideChanged(withSource('kcp'), withSource(), true)).toBe(false);
  });
  it('leaves a catalog not pushed as it was: a new Kyma Processing, Unknown; one taken over Ready, its True kept', () => {
    const notPushed = { crds: SYNCED.crds };
    const fresh = aggregate(withSource(), [manifest('sample', 'Ready')], NOW, notPushed);
    expect(fresh.state).toBe('Processing');
    expect(fresh.conditions?.find((c) => c.type === 'ModuleCatalog')).toMatchObject({ status: 'Unknown' });
    const ready = aggregate(withSource('runtime'), [manifest('sample', 'Ready')], NOW, SYNCED);
    // As upstream left it: Ready, conditions True, no resolution of ours yet (aggregate writes no specSource).
    const takenOver: Kyma = { ...base, status: ready };
    const kept = aggregate(takenOver, [manifest('sample', 'Ready')], NOW, notPushed);
    expect(kept.conditions?.find((c) => c.type === 'ModuleCatalog')).toMatchObject({ status: 'True' });
  });
});
