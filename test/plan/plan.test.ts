// `kyma-lifecycle-functions plan` (issue 25, ADR 39) as an operator runs it — a real process against a KCP and a
// runtime whose kube-apiservers keep an audit log — after real installs, with channel bumps and a template change
// planned but never applied: the Kymas listed with their versions, the runtime objects a version adds, changes and
// drops (server-side dry-run), a refused downgrade, a maintenance wait, a removal held by a user CR in upstream's
// words — and the API servers saw no write from the plan but dry-runs, and no resourceVersion moved.
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ModuleTemplate } from '../../shared/core/templates.ts';
import { API_VERSION, KCP_NAMESPACE, LABEL } from '../../shared/core/vocabulary.ts';
import { PlanWriteRefused, PLAN_USER_AGENT, readOnly } from '../../components/fleet/plan/read-only.ts';
import { readAudit } from '../deploy/audited-kcp.ts';
import { writeSnapshot } from '../e2e/snapshot.ts';
import { applyKyma, connectRuntime, getKyma, kymaInState } from '../e2e/world.ts';
import type { PlanReport } from '../../components/fleet/plan/report.ts';
import {
  CHART_MODULE,
  cli,
  diffOf,
  dir,
  GREETER,
  kcp,
  planJson,
  PLANNER,
  publishChart,
  READS,
  rowOf,
  runtime,
  runtimeClient,
  settled,
  startPlanFleet,
  stopPlanFleet,
  WIDGET_CRD,
  world,
} from './plan-fleet.ts';

beforeAll(startPlanFleet, 600_000);
afterAll(stopPlanFleet);

describe('plan', () => {
  it('previews a channel bump, a downgrade, a maintenance wait and a held removal; writes nothing', async () => {
    const before = await settled();
    const storedMeta = await world.kcp.get({
      apiVersion: API_VERSION,
      kind: 'ModuleReleaseMeta',
      namespace: KCP_NAMESPACE,
      name: 'plom',
    });

    // regular 1.0.0 → 2.0.0 upgrades plan-a; fast 2.0.0 → 1.0.0 is a downgrade plan-b refuses.
    const bump = await planJson(
      '--release-meta',
      'plom',
      '--set-channel',
      'regular=2.0.0',
      '--set-channel',
      'fast=1.0.0',
    );
    expect(bump).toMatchObject({
      change: 'ModuleReleaseMeta plom: regular=2.0.0 fast=1.0.0',
      kymas: 2,
      unchanged: 0,
      dryRuns: 1,
    });
    expect(rowOf(bump, 'plan-a')).toMatchObject({ outcome: 'upgrade', from: '1.0.0', to: '2.0.0' });
    const diff = diffOf(rowOf(bump, 'plan-a'));
    expect(diff?.created).toEqual(['ConfigMap kyma-system/plom-two']);
    expect(diff?.pruned).toEqual(['ConfigMap kyma-system/plom-one']);
    expect(diff?.changed).toContain('Deployment kyma-system/plom-manager');
    expect(diff?.changed).not.toContain('ServiceAccount kyma-system/plom-manager');
    expect(diff?.blockedBy).toEqual([]);
    expect(rowOf(bump, 'plan-b')).toMatchObject({
      outcome: 'refused',
      from: '2.0.0',
      to: '1.0.0',
      message:
        'ignore channel skew (from fast to fast), as a higher version (2.0.0) of the module was previously installed',
    });
    expect(rowOf(bump, 'plan-b')?.runtime).toBeUndefined();
    const text = await cli('--release-meta', 'plom', '--set-channel', 'regular=2.0.0', '--set-channel', 'fast=1.0.0');
    await mkdir('test-artifacts', { recursive: true });
    await writeFile(join('test-artifacts', 'plan.txt'), text.stdout); // the README's example
    expect(text.stdout.split('\n')).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^plan-a\s+plom\s+upgrade\s+1\.0\.0\s+2\.0\.0\s+\+1 ~\d+ -1\s*$/),
        '    + ConfigMap kyma-system/plom-two',
        '    - ConfigMap kyma-system/plom-one',
      ]),
    );

    // 3.0.0 requires downtime: with a window that closed an hour ago, plan-a waits (resolve-template's words).
    const policy = join(dir, 'policy.json');
    const at = (h: number) => `${new Date(Date.now() + h * 3_600_000).toISOString().slice(11, 19)}+00:00`;
    await writeFile(policy, JSON.stringify({ rules: [], default: { begin: at(-3), end: at(-2) } }));
    const waits = await planJson(
      '--release-meta',
      'plom',
      '--set-channel',
      'regular=3.0.0',
      '--kyma',
      'plan-a',
      '--maintenance-policy',
      policy,
    );
    expect(waits.rows).toEqual([
      {
        kyma: 'plan-a',
        module: 'plom',
        outcome: 'waits',
        from: '1.0.0',
        to: '3.0.0',
        message: 'waiting for next maintenance window to update module version',
      },
    ]);

    // plom-1.0.0 made internal: plan-a may not have it any more — its Manifest would go, held by the user's Plom CR.
    const template = await world.kcp.get<ModuleTemplate>({
      apiVersion: API_VERSION,
      kind: 'ModuleTemplate',
      namespace: KCP_NAMESPACE,
      name: 'plom-1.0.0',
    });
    const file = join(dir, 'plom-1.0.0.yaml');
    await writeFile(
      file,
      JSON.stringify({
        ...template,
        metadata: { ...template?.metadata, labels: { ...template?.metadata.labels, [LABEL.internal]: 'true' } },
      }),
    );
    const hidden = await planJson('--template', file);
    expect(hidden.rows.map((r) => r.kyma)).toEqual(['plan-a']);
    expect(rowOf(hidden, 'plan-a')).toMatchObject({
      outcome: 'refused',
      from: '1.0.0',
      message: `ModuleTemplate plom-1.0.0 is internal and Kyma plan-a does not enable internal modules (label ${LABEL.internal}: "true")`,
    });
    expect(diffOf(rowOf(hidden, 'plan-a'))).toMatchObject({
      blockedBy: ['Plom team-plan/mine'],
      created: [],
      changed: [],
    });
    expect(diffOf(rowOf(hidden, 'plan-a'))?.pruned).toEqual(
      expect.arrayContaining(['ConfigMap kyma-system/plom-one', 'Deployment kyma-system/plom-manager']),
    );

    // The fleet page's view: the same plan from the fleet component, then reused while nothing moved.
    const query = 'releaseMeta=plom&setChannel=regular%3D2.0.0,fast%3D1.0.0';
    const viaFleet = (await (await fetch(`${world.runner.fleet.url}/api/plan?${query}`)).json()) as PlanReport & {
      cached: boolean;
    };
    expect(viaFleet).toMatchObject({ change: bump.change, cached: false });
    expect(viaFleet.rows).toEqual(bump.rows);
    const page = await fetch(`${world.runner.fleet.url}/plan?${query}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<td>plan-a</td><td>plom</td><td class="upgrade">upgrade</td><td>1.0.0</td><td>2.0.0</td>');
    expect(html).toContain('<li>+ ConfigMap kyma-system/plom-two</li>');
    expect(html).toContain('(cached)');
    expect((await fetch(`${world.runner.fleet.url}/api/plan?releaseMeta=../x&setChannel=fast%3D1.0.0`)).status).toBe(
      400,
    );

    // The guard: a write through the plan's client never leaves the process.
    await expect(
      readOnly(world.kcp).mergePatch(
        { apiVersion: API_VERSION, kind: 'ModuleReleaseMeta', namespace: KCP_NAMESPACE, name: 'plom' },
        { metadata: { labels: { touched: 'yes' } } },
      ),
    ).rejects.toBeInstanceOf(PlanWriteRefused);

    // What the API servers saw: the planner's reads on the KCP and not one write; on the runtime only dry-runs.
    const kcpRequests = (await readAudit(kcp.auditLog)).filter((r) => r.user === PLANNER);
    expect(
      kcpRequests.filter((r) => r.resource === 'kymas.operator.kyma-project.io' && r.verb === 'list').length,
    ).toBeGreaterThan(0);
    expect(kcpRequests.filter((r) => !READS.has(r.verb))).toEqual([]);
    expect(new Set(kcpRequests.map((r) => r.userAgent))).toEqual(new Set([PLAN_USER_AGENT]));
    const runtimeRequests = (await readAudit(runtime.auditLog)).filter((r) => r.userAgent === PLAN_USER_AGENT);
    const runtimeWrites = runtimeRequests.filter((r) => !READS.has(r.verb));
    expect(runtimeWrites.length).toBeGreaterThan(0);
    expect(runtimeWrites.filter((r) => !/[?&]dryRun=All(&|$)/.test(r.requestURI))).toEqual([]);
    expect(
      runtimeRequests.filter((r) => r.verb === 'list' && r.resource === 'ploms.plom.modules.kyma-project.io').length,
    ).toBeGreaterThan(0);

    // Nothing moved: every resourceVersion in the KCP and on the runtime, the user's CR, the ModuleReleaseMeta.
    expect(await writeSnapshot(world.kcp, [runtimeClient])).toEqual(before);
    expect(
      await world.kcp.get({
        apiVersion: API_VERSION,
        kind: 'ModuleReleaseMeta',
        namespace: KCP_NAMESPACE,
        name: 'plom',
      }),
    ).toEqual(storedMeta);
  }, 300_000);

  it("previews a chart module's release bump through the same code path (Helm renders the new chart version); a dropped CRD a CR uses is kept", async () => {
    await publishChart('0.1.0', GREETER, 'message: from-module\nextra: true\n', true, [WIDGET_CRD]);
    await connectRuntime(world, 'plan-c', 0);
    await applyKyma(world, 'plan-c', { channel: 'regular', modules: [{ name: CHART_MODULE }] });
    await kymaInState(
      world,
      'plan-c',
      'Ready',
      (k) =>
        k.status?.modules?.some((m) => m.name === CHART_MODULE && m.state === 'Ready' && m.version === '0.1.0') ??
        false,
    );
    const [runtime0] = world.runtimes;
    if (!runtime0) throw new Error('no runtime');
    await runtime0
      .create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'team-chart' } })
      .catch(() => undefined);
    await runtime0.create({
      apiVersion: 'charts.example.com/v1',
      kind: 'Widget',
      metadata: { name: 'mine', namespace: 'team-chart' },
      spec: { size: 1 },
    });
    const chart020 = join(dir, 'greeter-0.2.0');
    await cp(GREETER, chart020, { recursive: true });
    await writeFile(
      join(chart020, 'Chart.yaml'),
      (await readFile(join(chart020, 'Chart.yaml'), 'utf8')).replace(/^version: 0\.1\.0$/m, 'version: 0.2.0'),
    );
    await publishChart('0.2.0', chart020, 'message: upgraded\n', false); // no CRDs layer; the template only: the channel stays

    const report = await planJson('--release-meta', CHART_MODULE, '--set-channel', 'regular=0.2.0', '--kyma', 'plan-c');
    const row = report.rows.find((r) => r.kyma === 'plan-c');
    expect(row).toMatchObject({ module: CHART_MODULE, outcome: 'upgrade', from: '0.1.0', to: '0.2.0' });
    const diff = diffOf(row);
    expect(diff?.created).toEqual([]);
    // The Widget CRD the new version drops is kept while the user's Widget uses it (issue 34): pruning it would take
    // the Widget with it, which only spec.modules[].allowCrdPrune allows.
    expect(diff?.pruned).toEqual([`ConfigMap kyma-system/${CHART_MODULE}-extra`]);
    expect(diff?.keptCrds).toEqual([
      'CustomResourceDefinition widgets.charts.example.com kept: used by Widget team-chart/mine',
    ]);
    expect(diff?.deletedWithCrds).toEqual([]);
    expect(diff?.changed).toEqual(
      expect.arrayContaining([
        `Deployment kyma-system/${CHART_MODULE}-greeter`,
        `ConfigMap kyma-system/${CHART_MODULE}-greeting`,
      ]),
    );
    expect((await readAudit(kcp.auditLog)).filter((r) => r.user === PLANNER && !READS.has(r.verb))).toEqual([]);
    expect((await getKyma(world, 'plan-c'))?.status?.modules?.find((m) => m.name === CHART_MODULE)?.version).toBe(
      '0.1.0',
    );
    expect(
      await runtime0.get({
        apiVersion: 'charts.example.com/v1',
        kind: 'Widget',
        name: 'mine',
        namespace: 'team-chart',
      }),
    ).toBeDefined();
  });

  it('refuses bad input with exit code 2 and says what is expected', async () => {
    expect(await cli()).toMatchObject({
      code: 2,
      stderr: 'error: plan needs --release-meta <file|name> or --template <file>\n',
    });
    expect(await cli('--release-meta', 'plom', '--set-channel', 'fast')).toMatchObject({
      code: 2,
      stderr: 'error: --set-channel "fast": expected <channel>=<version>, e.g. fast=1.2.0\n',
    });
    expect(await cli('--release-meta', 'plom')).toMatchObject({ code: 2 });
    expect(await cli('--release-meta', 'nosuch', '--set-channel', 'fast=1.0.0')).toMatchObject({
      code: 2,
      stderr: 'error: --release-meta nosuch: no such ModuleReleaseMeta in the namespace (a file path must exist)\n',
    });
    expect(await cli('--template', join(dir, 'missing.yaml'))).toMatchObject({
      code: 2,
      stderr: `error: cannot read ${join(dir, 'missing.yaml')}\n`,
    });
  });
});
