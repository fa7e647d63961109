// Least privilege, proven on a real KCP with the kube-apiserver's audit log: every component of manifests/ acts under
// its own ServiceAccount with exactly the RBAC manifests/rbac grants (real tokens from the TokenRequest API), the
// whole chain runs (install, upgrade from the runtime, unmanage, mandatory withdrawn, removal blocked by a user CR,
// forced purge) without a single refused request, and every permission granted was used — nothing broader.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Cluster } from '../../local/controlplane/index.ts';
import { API_VERSION, KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { publishSampleModule, setMandatoryVersion, setReleaseChannels } from '../../tools/module/publish.ts';
import { crRef, dropFinalizers, userCr } from '../e2e/removal-helpers.ts';
import {
  applyKyma,
  connectRuntime,
  deleteKyma,
  eventually,
  getKyma,
  kymaGone,
  kymaInState,
  manifestsOf,
  REMOTE_KYMA,
  startWorld,
  stopWorld,
  type World,
} from '../e2e/world.ts';
import { readAudit, type AuditedRequest } from './audited-kcp.ts';
import { covers, grantsOf, grantText, type Grant } from './grants.ts';
import { COMPONENTS, serviceAccountOf, usernameOf } from './identities.ts';
import { startRbacKcp } from './rbac-kcp.ts';
import type { Doc } from './validate.ts';

/** Granted but not exercised by the chain, each for a reason outside our code. */
const UNUSED_BY_DESIGN: Record<string, string[]> = {
  // Knative's controller checks get, list and watch with SubjectAccessReviews before it starts the adapter.
  'apiserver-source': [
    'get kymas.operator.kyma-project.io in kcp-system',
    'get manifests.operator.kyma-project.io in kcp-system',
    'get moduletemplates.operator.kyma-project.io in kcp-system',
    'get modulereleasemetas.operator.kyma-project.io in kcp-system',
  ],
  // apply-remote records a Manifest Event only when a module goes into or out of Error/Warning (ADR 26): not here.
  'apply-remote': ['create events in kcp-system'],
};

/** Reads served from watch caches (ADR 15, 62): a live get serves a cache not listed yet, one that cannot catch up
 * with what the call must see within 10 s, and LIFECYCLE_KCP_READ_CACHE=false — used or not, as timing has it, but
 * granted. (resolve-template reads its Kyma live before it creates a runtime Kyma: always used, so not listed.) */
const FALLBACK_READS: Record<string, string[]> = {
  'resolve-template': [
    'get moduletemplates.operator.kyma-project.io in kcp-system',
    'get modulereleasemetas.operator.kyma-project.io in kcp-system',
  ],
  'render-manifest': [
    'get moduletemplates.operator.kyma-project.io in kcp-system',
    'get modulereleasemetas.operator.kyma-project.io in kcp-system',
    'get kymas.operator.kyma-project.io in kcp-system',
  ],
  'runtime-watch': ['get kymas.operator.kyma-project.io in kcp-system'],
  'aggregate-status': ['get kymas.operator.kyma-project.io in kcp-system'],
  'apply-remote': [
    'get kymas.operator.kyma-project.io in kcp-system',
    'get manifests.operator.kyma-project.io in kcp-system',
  ],
  purge: ['get kymas.operator.kyma-project.io in kcp-system'],
  fleet: [
    'get kymas.operator.kyma-project.io in kcp-system',
    'get manifests.operator.kyma-project.io in kcp-system',
    'get modulereleasemetas.operator.kyma-project.io in kcp-system',
  ],
};
const dockerConfig = (host: string) =>
  Buffer.from(JSON.stringify({ auths: { [host]: { auth: Buffer.from('robot:unused').toString('base64') } } })).toString(
    'base64',
  );
const pullSecret = (name: string, host: string) => ({
  apiVersion: 'v1',
  kind: 'Secret',
  metadata: { name, namespace: KCP_NAMESPACE },
  type: 'kubernetes.io/dockerconfigjson',
  data: { '.dockerconfigjson': dockerConfig(host) },
});

/** Invocations of a function so far, from its host's /metrics. */
async function invocations(fn: string): Promise<number> {
  const text = await (await fetch(new URL('/metrics', world.runner.functions.get(fn)))).text();
  return [...text.matchAll(/^lifecycle_function_invocations_total\{[^}]*\} (\d+)$/gm)].reduce(
    (sum, m) => sum + Number(m[1]),
    0,
  );
}

let kcp: Cluster;
let auditLog: string;
let docs: Doc[];
let world: World;

beforeAll(async () => {
  const rbac = await startRbacKcp('kcp-least-privilege');
  ({ cluster: kcp, auditLog, docs } = rbac);
  world = await startWorld(
    {
      LIFECYCLE_PURGE_GRACE_SECONDS: '4',
      LIFECYCLE_OCI_REGISTRY_CRED_SECRET: 'lifecycle-registry-credentials',
      LIFECYCLE_RUNTIME_IMAGE_PULL_SECRET: 'lifecycle-image-pull-secret',
    },
    {
      kcp: kcp.kubeconfig,
      identity: rbac.identity,
      beforeRunner: async (admin) => {
        await admin.apply(
          pullSecret('lifecycle-registry-credentials', `http://${inject('controlPlane').registryHost}`),
          'installer',
        );
        await admin.apply(pullSecret('lifecycle-image-pull-secret', 'mirror.example.net'), 'installer');
      },
    },
  );
  for (const version of ['1.0.0', '2.0.0'])
    await publishSampleModule(world.registry, world.kcp, { name: 'papa', version, namespace: KCP_NAMESPACE });
  await setReleaseChannels(world.kcp, KCP_NAMESPACE, 'papa', [
    { channel: 'regular', version: '1.0.0' },
    { channel: 'fast', version: '2.0.0' },
  ]);
  await publishSampleModule(world.registry, world.kcp, { name: 'quebec', version: '1.0.0', namespace: KCP_NAMESPACE });
  await setMandatoryVersion(world.kcp, KCP_NAMESPACE, 'quebec', '1.0.0');
});

afterAll(async () => {
  // The runtime is shared with the other test files: nothing of this KCP's Kyma may stay on it.
  await stopWorld(world);
  const runtime = world?.runtimes[0];
  if (runtime) {
    await dropFinalizers(runtime, crRef('papa', 'mine', 'team-lp')).catch(() => undefined);
    await runtime.delete(REMOTE_KYMA).catch(() => undefined);
  }
  await kcp?.stop();
});

const moduleState = (name: string, module: string, state: string, version?: string) =>
  kymaInState(world, name, 'Ready', (k) => {
    const m = k.status?.modules?.find((x) => x.name === module);
    return m?.state === state && (!version || m.version === version);
  });

describe('every component under its own ServiceAccount (manifests/rbac)', () => {
  it('runs the whole chain: install, upgrade from the runtime, unmanage, mandatory withdrawn, blocked removal, forced purge', async () => {
    await connectRuntime(world, 'lp-1', 0);
    await applyKyma(world, 'lp-1', { channel: 'regular', modules: [{ name: 'papa' }] });
    await moduleState('lp-1', 'papa', 'Ready', '1.0.0');
    await eventually('mandatory quebec installed', async () =>
      (await manifestsOf(world, 'lp-1')).some(
        (m) => m.metadata.labels?.['operator.kyma-project.io/mandatory-module'] === 'true',
      ),
    );
    // The fleet component under its own account: gauges (Kymas, Manifests, release metas) and why (Events).
    const fleet = (path: string) => fetch(new URL(path, world.runner.fleet.url)).then((r) => r.text());
    expect(await fleet('/metrics')).toContain('lifecycle_mgr_mandatory_modules 1');
    expect(JSON.parse(await fleet('/api/kymas/lp-1')).headline).toMatch(/^Kyma kcp-system\/lp-1: /);
    // Its plan view (ADR 39) under the same account: a channel bump previewed, with a dry-run on the runtime.
    const planned = JSON.parse(await fleet('/api/plan?releaseMeta=papa&setChannel=regular=2.0.0')) as {
      error?: string;
      rows?: { kyma: string; from?: string; to?: string; runtime?: object }[];
    };
    expect(planned.error).toBeUndefined();
    const row = planned.rows?.find((r) => r.kyma === 'lp-1');
    expect(row).toMatchObject({ from: '1.0.0', to: '2.0.0' });
    expect(row?.runtime).toBeDefined();
    expect(row?.runtime).not.toHaveProperty('error');
    const runtime = world.kymaRuntime.get('lp-1');
    if (!runtime) throw new Error('no runtime');
    await runtime.mergePatch(REMOTE_KYMA, { spec: { channel: 'fast', modules: [{ name: 'papa' }] } });
    await moduleState('lp-1', 'papa', 'Ready', '2.0.0');
    // An explicit downgrade (ADR 38): resolve-template records Event ModuleDowngrade on the Kyma.
    await runtime.mergePatch(REMOTE_KYMA, {
      spec: { modules: [{ name: 'papa', version: '1.0.0', allowDowngradeTo: '1.0.0' }] },
    });
    await moduleState('lp-1', 'papa', 'Ready', '1.0.0');

    await runtime.mergePatch(REMOTE_KYMA, { spec: { modules: [{ name: 'papa', managed: false }] } });
    await eventually(
      'papa unmanaged: its Manifest gone, its resources kept',
      async () =>
        !(await manifestsOf(world, 'lp-1')).some(
          (m) => m.metadata.labels?.['operator.kyma-project.io/module-name'] === 'papa',
        ),
    );
    await world.kcp.delete({
      apiVersion: API_VERSION,
      kind: 'ModuleReleaseMeta',
      namespace: KCP_NAMESPACE,
      name: 'quebec',
    });
    await eventually('mandatory quebec withdrawn', async () => (await manifestsOf(world, 'lp-1')).length === 0);

    await runtime.mergePatch(REMOTE_KYMA, { spec: { channel: 'regular', modules: [{ name: 'papa' }] } });
    await moduleState('lp-1', 'papa', 'Ready');
    await userCr(runtime, 'papa', 'mine', 'team-lp', ['test.kyma-project.io/keep']);
    await runtime.mergePatch(REMOTE_KYMA, { spec: { modules: [] } });
    await eventually('removal blocked by the user CR', async () =>
      (await getKyma(world, 'lp-1'))?.status?.modules
        ?.find((m) => m.name === 'papa')
        ?.message?.includes('team-lp/mine'),
    );
    // A rendering while the removal is blocked: the deleting Manifest follows its channel (its reads come from the
    // watch caches, ADR 15 and 17, so the call is counted by the function's own /metrics).
    const renderings = () => invocations('render-manifest');
    const before = await renderings();
    await world.runner.resync();
    await eventually(
      'render-manifest rendered during the blocked removal',
      async () => (await renderings()) > before,
      60_000,
    );
    await dropFinalizers(runtime, crRef('papa', 'mine', 'team-lp'));
    await runtime.delete(crRef('papa', 'mine', 'team-lp')).catch(() => undefined);
    await world.runner.resync(); // the runtime change makes no KCP event; the retries may have run out meanwhile
    await eventually('papa removed', async () => (await manifestsOf(world, 'lp-1')).length === 0);

    await runtime.mergePatch(REMOTE_KYMA, { spec: { modules: [{ name: 'papa' }] } });
    await moduleState('lp-1', 'papa', 'Ready');
    const manifest = (await manifestsOf(world, 'lp-1'))[0]?.metadata.name ?? '';
    await runtime.mergePatch(crRef('papa', manifest, 'kyma-system'), {
      metadata: { finalizers: ['test.kyma-project.io/operator-gone'] },
    });
    await deleteKyma(world, 'lp-1');
    await kymaGone(world, 'lp-1');
    const events = await world.kcp.list<{ kind?: string; reason?: string; involvedObject?: { name?: string } }>(
      'v1',
      'Event',
      { namespace: KCP_NAMESPACE },
    );
    expect(events.items.some((e) => e.reason === 'PurgedModuleCrFinalizers' && e.involvedObject?.name === 'lp-1')).toBe(
      true,
    );
    expect(events.items.some((e) => e.reason === 'ModuleDowngrade' && e.involvedObject?.name === 'lp-1')).toBe(true);
    await world.runner.resync();
  }, 300_000);

  it('was refused nothing, and used every permission it was granted', async () => {
    const audit = await readAudit(auditLog);
    const report: string[] = [];
    const problems: string[] = [];
    for (const component of COMPONENTS) {
      const requests = audit.filter((r) => r.user === usernameOf(component));
      const grants = grantsOf(docs, KCP_NAMESPACE, serviceAccountOf(component));
      if (grants.length === 0) problems.push(`${component}: no RBAC at all`);
      for (const r of requests.filter((x) => x.code === 403)) problems.push(`${component}: refused ${requestText(r)}`);
      for (const r of requests.filter((x) => !grants.some((g) => covers(g, x))))
        problems.push(`${component}: allowed by something other than its own RBAC: ${requestText(r)}`);
      const unused = grants.filter((g) => !requests.some((r) => covers(g, r))).map(grantText);
      const expected = UNUSED_BY_DESIGN[component] ?? [];
      const fallbacks = FALLBACK_READS[component] ?? [];
      for (const g of unused.filter((x) => !expected.includes(x) && !fallbacks.includes(x)))
        problems.push(`${component}: granted but never used: ${g}`);
      for (const g of expected.filter((x) => !unused.includes(x)))
        problems.push(`${component}: listed as unused by design but used or not granted: ${g}`);
      for (const g of fallbacks.filter((x) => !grants.map(grantText).includes(x)))
        problems.push(`${component}: listed as a fallback read but not granted: ${g}`);
      report.push(`${component}: ${requests.length} requests, ${grants.length} grants`);
    }
    expect(problems).toEqual([]);
    console.log(`[least-privilege] ${report.join('; ')}`);
  });

  it('never lets the components that have no business with runtimes read Secrets beyond the registry login', () => {
    for (const component of ['render-manifest', 'resync', 'apiserver-source']) {
      const secrets = grantsOf(docs, KCP_NAMESPACE, serviceAccountOf(component)).filter(
        (g: Grant) => g.resource === 'secrets',
      );
      expect(secrets.map(grantText), component).toEqual(
        component === 'apiserver-source' ? [] : ['get secrets [lifecycle-registry-credentials] in kcp-system'],
      );
    }
    const all = COMPONENTS.flatMap((c) => grantsOf(docs, KCP_NAMESPACE, serviceAccountOf(c)));
    expect(all.filter((g) => g.verb === '*' || g.resource.startsWith('*')).map(grantText)).toEqual([]);
    expect(all.filter((g) => g.namespace === '').map(grantText)).toEqual([
      'get customresourcedefinitions.apiextensions.k8s.io [kymas.operator.kyma-project.io, moduletemplates.operator.kyma-project.io, modulereleasemetas.operator.kyma-project.io]',
    ]);
  });
});

const requestText = (r: AuditedRequest) => `${r.verb} ${r.resource} ${r.namespace}/${r.name} → ${r.code}`;
