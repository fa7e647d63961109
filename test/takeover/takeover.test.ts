// Taking over a fleet upstream's lifecycle manager ran (issue 33, ADR 40): what upstream c5b83f1 wrote on this
// harness (test/fixtures/upstream-klm-c5b83f1: 4 Kymas named by runtime ids, modules sample and connectivity-proxy,
// all Ready) is loaded into a KCP and one runtime per Kyma — upstream's field managers, finalizers and status with
// it — and then the functions start, as after stopping upstream. Every write is counted by the API servers' audit
// logs (the functions act as their production ServiceAccounts on the KCP).
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Kyma } from '../../shared/core/kyma.ts';
import type { Manifest } from '../../shared/core/manifest.ts';
import { API_VERSION, FINALIZER, KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { REMOTE_KYMA } from '../../shared/kube/remote-namespace.ts';
import { UPSTREAM_WATCHER } from '../../functions/aggregate-status/upstream-watcher.ts';
import { eventually, getKyma, kymaInState } from '../e2e/world.ts';
import { docBashBlock } from '../e2e/readme.ts';
import { manifestsIn, uidsOf, writesSoFar } from './fleet.ts';
import { settled, shapeOf, tallyOf } from './observe.ts';
import { before, fleet, isWatcher, stopTakeover, takeOver, takeover, world } from './takeover-world.ts';

const execFileAsync = promisify(execFile);

beforeAll(takeOver, 600_000);
afterAll(stopTakeover);

describe('taking over a fleet upstream ran (ADR 40)', () => {
  it("adopts every Manifest under upstream's name: none created, none deleted, the same uids", async () => {
    expect(Object.keys(before.manifests)).toHaveLength(8);
    expect(Object.keys(before.manifests).filter((n) => n.endsWith('-connectivity-proxy-381734'))).toHaveLength(4);
    const after = Object.fromEntries(
      (await manifestsIn(world.kcp)).map((m) => [m.metadata.name, m.metadata.uid ?? '']),
    );
    expect(after).toEqual(before.manifests);
    expect(
      takeover.filter((w) => w.cluster === 'kcp' && w.resource === 'manifests.operator.kyma-project.io'),
      'no Manifest spec, metadata or finalizer written',
    ).toEqual([]);
  });

  it('re-creates nothing on any runtime and leaves every module object, default CR, CRD and catalog copy unwritten', async () => {
    for (const [kyma, runtime] of fleet.runtimes) {
      const now = await uidsOf(runtime.admin, fleet.runtimeObjects.get(kyma) ?? []);
      const kept = Object.fromEntries(
        Object.entries(before.runtimeUids.get(kyma) ?? {}).filter(([key]) => !isWatcher(key)),
      );
      expect(Object.fromEntries(Object.entries(now).filter(([key]) => !isWatcher(key)))).toEqual(kept);
    }
    const runtimeWrites = takeover.filter((w) => w.cluster !== 'kcp');
    const kymaStatus = runtimeWrites.filter((w) => w.resource === 'kymas.operator.kyma-project.io/status');
    expect(
      runtimeWrites.filter((w) => w.verb !== 'delete' && !kymaStatus.includes(w)),
      'runtime writes other than the status mirror and the watcher removal',
    ).toEqual([]);
    expect(kymaStatus.length, 'one status mirror per runtime Kyma, the first after the takeover').toBeLessThanOrEqual(
      fleet.kymas.length * 2,
    );
  });

  it("removes upstream's SKR watcher from every runtime, and only that", async () => {
    for (const [kyma, runtime] of fleet.runtimes) {
      const now = await uidsOf(runtime.admin, fleet.runtimeObjects.get(kyma) ?? []);
      const watcher = Object.entries(now).filter(([key]) => isWatcher(key));
      expect(watcher.length, kyma).toBe(UPSTREAM_WATCHER.length);
      for (const [key, uid] of watcher) expect(uid, key).toBe('gone');
      const deleted = takeover
        .filter((w) => w.cluster === `runtime ${kyma}` && w.verb === 'delete')
        .map((w) => w.name)
        .sort();
      expect(deleted).toEqual(UPSTREAM_WATCHER.map((w) => w.name).sort());
    }
  });

  it('keeps every Kyma Ready throughout: no state but Ready was ever seen', async () => {
    const seen = world.events
      .map((e) => e.data as Kyma | undefined)
      .filter((k) => k?.kind === 'Kyma' && k.status?.state)
      .map((k) => `${k?.metadata.name} ${k?.status?.state}`);
    expect(seen.length).toBeGreaterThan(fleet.kymas.length);
    expect([...new Set(seen)].sort()).toEqual(fleet.kymas.map((k) => `${k} Ready`).sort());
    for (const kyma of fleet.kymas)
      expect((await getKyma(world, kyma))?.status?.modules?.map((m) => `${m.name} ${m.state}`).sort()).toEqual([
        'connectivity-proxy Ready',
        'sample Ready',
      ]);
  });

  it('writes a bounded number of times per Kyma: status hand-over, the watcher removal and its Event', () => {
    const tally = tallyOf(takeover);
    console.log(
      `[takeover] writes for ${fleet.kymas.length} Kymas:\n${tally.map(([what, n]) => `  ${n} ${what}`).join('\n')}`,
    );
    const kymas = fleet.kymas.length;
    const count = (cluster: 'kcp' | 'runtime', user: string, verb: string, resource: string) =>
      takeover.filter(
        (w) =>
          (cluster === 'kcp' ? w.cluster === 'kcp' : w.cluster !== 'kcp') &&
          w.user === user &&
          w.verb === verb &&
          w.resource === resource &&
          w.code < 400,
      ).length;
    expect(count('kcp', 'resolve-template', 'patch', 'kymas.operator.kyma-project.io/status')).toBeLessThanOrEqual(
      kymas * 2,
    );
    expect(count('kcp', 'aggregate-status', 'patch', 'kymas.operator.kyma-project.io/status')).toBeLessThanOrEqual(
      kymas * 2,
    );
    expect(count('kcp', 'apply-remote', 'patch', 'manifests.operator.kyma-project.io/status')).toBeLessThanOrEqual(
      kymas * 2 * 2,
    );
    expect(count('kcp', 'aggregate-status', 'create', 'events')).toBe(kymas);
    const known = new Set([
      'kymas.operator.kyma-project.io/status',
      'manifests.operator.kyma-project.io/status',
      'events',
    ]);
    expect(
      takeover.filter((w) => w.cluster === 'kcp' && !known.has(w.resource)),
      'KCP writes other than status and Events',
    ).toEqual([]);
  });

  it('leaves the objects in the shape upstream expects, so upstream can take the fleet back', async () => {
    const after = await shapeOf(world.kcp, fleet);
    expect(after).toEqual(before.shapes);
    for (const m of (await manifestsIn(world.kcp)) as Manifest[]) {
      expect(m.metadata.finalizers, m.metadata.name).toEqual([
        FINALIZER.declarative,
        FINALIZER.labelRemoval,
        FINALIZER.resource,
      ]);
      expect(m.spec?.remote, m.metadata.name).toBe(false);
    }
    const kcpNow = await uidsOf(world.kcp, fleet.kcpObjects);
    expect(kcpNow, "Kymas, templates, Secrets and upstream's Certificates in istio-system: the same objects").toEqual(
      before.kcpUids,
    );
  });

  it('writes nothing over two more drift periods', async () => {
    // A Ready object's drift check comes a drift period (1 minute here) after its last write at the earliest (ADR 42).
    const newest = Math.max(
      ...[
        ...(await manifestsIn(world.kcp)),
        ...(await world.kcp.list<Kyma>(API_VERSION, 'Kyma', { namespace: KCP_NAMESPACE })).items,
      ].flatMap((o) =>
        ((o.metadata as { managedFields?: { time?: string }[] }).managedFields ?? []).map(
          (f) => Date.parse(f.time ?? '') || 0,
        ),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, newest + 61_000 - Date.now())));
    const count = (await writesSoFar(fleet)).length;
    const received = world.runner.broker.stats().received;
    for (let period = 0; period < 2; period++) {
      await world.runner.resync();
      await world.runner.broker.idle();
    }
    await settled(world, fleet);
    // Per tick a Kyma's `resync.due` and `modules.due` (ADR 94); its second tick sends no `modules.resolved` (ADR 95).
    expect(
      world.runner.broker.stats().received - received,
      'drift checks of every Kyma and its modules, twice',
    ).toBeGreaterThanOrEqual(2 * 2 * fleet.kymas.length);
    expect((await writesSoFar(fleet)).slice(count)).toEqual([]);
  });

  it("the migration guide's clean-up of upstream's KCP watcher setup removes its certificates and Secrets, nothing else", async () => {
    const block = await docBashBlock('migrating-from-upstream.md', 'From upstream to the functions');
    const env = {
      PATH: `${inject('controlPlane').binDir}:/usr/bin:/bin`,
      KUBECONFIG: fleet.kcp.cluster.kubeconfigPath,
      HOME: inject('controlPlane').runDir,
    };
    // `set` inside: bash started by node sources /etc/bash.bashrc (its stdin is a socket), which -u would break.
    const run = await execFileAsync('bash', ['-c', `set -euo pipefail\n${block}`], { env });
    expect(run.stderr.split('\n').filter((l) => l && !l.includes('bash.bashrc'))).toEqual([]);
    const left = await uidsOf(world.kcp, fleet.kcpObjects);
    const watcherSetup = (key: string) =>
      key.startsWith('Certificate/istio-system/') || key.startsWith('Secret/istio-system/');
    expect(
      Object.entries(left)
        .filter(([key]) => watcherSetup(key))
        .map(([, uid]) => uid),
    ).toEqual(Array(fleet.kymas.length * 2 + 1).fill('gone'));
    expect(Object.fromEntries(Object.entries(left).filter(([key]) => !watcherSetup(key)))).toEqual(
      Object.fromEntries(Object.entries(before.kcpUids).filter(([key]) => !watcherSetup(key))),
    );
  });

  it("keeps upstream's same-layer guard: an object the synced layer no longer renders is a Warning, never pruned", async () => {
    const kyma = fleet.kymas[1] ?? '';
    const runtime = fleet.runtimes.get(kyma)?.admin;
    if (!runtime) throw new Error('no runtime');
    const name = `${kyma}-sample-1092497565`;
    const ref = { apiVersion: API_VERSION, kind: 'Manifest', namespace: KCP_NAMESPACE, name };
    const stray = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'left-by-an-older-rendering', namespace: 'kyma-system' },
      data: { a: 'b' },
    };
    await runtime.create(stray);
    const synced = (await world.kcp.get<Manifest>(ref))?.status?.synced ?? [];
    await world.kcp.mergePatch(
      ref,
      {
        status: {
          synced: [
            ...synced,
            { group: '', version: 'v1', kind: 'ConfigMap', name: stray.metadata.name, namespace: 'kyma-system' },
          ],
        },
      },
      'status',
    );
    const warned = await eventually('the Manifest Warning naming the object', async () => {
      const m = await world.kcp.get<Manifest>(ref);
      return m?.status?.state === 'Warning' ? m : undefined;
    });
    expect(warned.status?.lastOperation?.operation).toContain(
      `resource syncTarget diff detected but in same oci layer, prevent sync resource to be deleted: ConfigMap kyma-system/${stray.metadata.name}`,
    );
    await kymaInState(world, kyma, 'Warning');
    expect(
      await runtime.get({ ...stray, name: stray.metadata.name, namespace: 'kyma-system' }),
      'not pruned',
    ).toBeDefined();
    await runtime.delete({ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'kyma-system', name: stray.metadata.name });
    await world.runner.resync();
    await kymaInState(world, kyma, 'Ready');
    expect((await world.kcp.get<Manifest>(ref))?.status?.synced?.map((r) => r.name)).not.toContain(stray.metadata.name);
  });

  it("then works as ever: a module removed on a runtime is uninstalled through upstream's finalizers", async () => {
    const [kyma = ''] = fleet.kymas;
    const runtime = fleet.runtimes.get(kyma)?.admin;
    if (!runtime) throw new Error('no runtime');
    await runtime.mergePatch(REMOTE_KYMA, {
      spec: { modules: [{ name: 'sample', customResourcePolicy: 'CreateAndDelete', managed: true }] },
    });
    await kymaInState(world, kyma, 'Ready', (k) => (k.status?.modules ?? []).map((m) => m.name).join() === 'sample');
    await eventually(
      'connectivity-proxy gone from the runtime',
      async () =>
        (await runtime.get({
          apiVersion: 'apps/v1',
          kind: 'Deployment',
          namespace: 'kyma-system',
          name: 'connectivity-proxy-manager',
        })) === undefined,
    );
    const manifests = (
      await world.kcp.list<Manifest>(API_VERSION, 'Manifest', { namespace: KCP_NAMESPACE })
    ).items.filter((m) => m.metadata.name.startsWith(kyma));
    expect(manifests.map((m) => m.metadata.name)).toEqual([`${kyma}-sample-1092497565`]);
  });

  it('and a module added afterwards gets the Manifest upstream would have written: its name, labels, annotations, finalizers and spec', async () => {
    const [kyma = ''] = fleet.kymas;
    const runtime = fleet.runtimes.get(kyma)?.admin;
    if (!runtime) throw new Error('no runtime');
    const upstreams = fleet.kcpObjects.find(
      (o) => o.kind === 'Manifest' && o.metadata.name === `${kyma}-connectivity-proxy-381734`,
    );
    if (!upstreams) throw new Error('no recorded Manifest');
    await runtime.mergePatch(REMOTE_KYMA, {
      spec: {
        modules: ['sample', 'connectivity-proxy'].map((name) => ({
          name,
          customResourcePolicy: 'CreateAndDelete',
          managed: true,
        })),
      },
    });
    await kymaInState(
      world,
      kyma,
      'Ready',
      (k) => (k.status?.modules ?? []).filter((m) => m.state === 'Ready').length === 2,
    );
    const ours = await world.kcp.get<Manifest>({
      apiVersion: API_VERSION,
      kind: 'Manifest',
      namespace: KCP_NAMESPACE,
      name: upstreams.metadata.name,
    });
    if (!ours) throw new Error(`no Manifest ${upstreams.metadata.name}`);
    expect(ours.metadata.labels).toEqual(upstreams.metadata.labels);
    expect(ours.metadata.annotations).toMatchObject(upstreams.metadata.annotations ?? {});
    expect(ours.metadata.finalizers).toEqual(upstreams.metadata.finalizers);
    const meaning = (spec: unknown) =>
      JSON.parse(
        JSON.stringify(spec, (_, v: unknown) => (Array.isArray(v) && v.length === 0 ? undefined : v)),
      ) as unknown;
    expect(meaning(ours.spec)).toEqual(meaning(upstreams.spec));
    expect(ours.metadata.ownerReferences?.map((o) => `${o.kind}/${o.name} controller=${String(o.controller)}`)).toEqual(
      [`Kyma/${kyma} controller=true`],
    );
  });
});
