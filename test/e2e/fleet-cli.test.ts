// The fleet CLI (issue 9) as an operator runs it — `node tools/fleet/cli/main.ts status|why …`, a real process against the
// real KCP — and the Kubernetes Events the functions record: a failing module shows up in `why` with its exact
// reason, a blocked deletion names the blocking object, and both appear as Events without repeats.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { crRef, dropFinalizers, publishModule, userCr } from './removal-helpers.ts';
import {
  applyKyma,
  connectRuntime,
  deleteKyma,
  eventually,
  getKyma,
  kymaGone,
  kymaInState,
  manifestsOf,
  startWorld,
  stopWorld,
  type World,
} from './world.ts';

const CLI = join(import.meta.dirname, '..', '..', 'tools', 'fleet', 'cli', 'main.ts');
const KYMA = 'fleet-a';
let world: World;
let dir: string;
let kubeconfig: string;

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

function cli(...args: string[]): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: { ...process.env, KUBECONFIG: '' } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

const scrape = async (base: string) => (await fetch(new URL('/metrics', base))).text();

interface KubeEvent {
  type?: string;
  reason?: string;
  message?: string;
  count?: number;
  involvedObject?: { kind?: string; name?: string };
}
const eventsAbout = async (name: string) =>
  (
    await world.kcp.list<KubeEvent & { metadata?: { name?: string } }>('v1', 'Event', {
      namespace: KCP_NAMESPACE,
      fieldSelector: `involvedObject.name=${name}`,
    })
  ).items;

beforeAll(async () => {
  world = await startWorld();
  await publishModule(world, 'papa', ['1.0.0']);
  await publishModule(world, 'broken', ['1.0.0'], { unschedulable: true });
  dir = await mkdtemp(join(tmpdir(), 'fleet-cli-'));
  kubeconfig = join(dir, 'kcp.kubeconfig');
  await writeFile(kubeconfig, inject('controlPlane').kcp, { mode: 0o600 });
});

afterAll(async () => {
  // Kymas left behind would hold their runtime's kyma-system/default against later test files.
  await stopWorld(world);
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('fleet CLI and Events', () => {
  it('why: a failing module with its exact reason down to the Deployment; status counts it; Events recorded the state changes once', async () => {
    await connectRuntime(world, KYMA, 0);
    await applyKyma(world, KYMA, { channel: 'regular', modules: [{ name: 'papa' }, { name: 'broken' }] });
    const kyma = await kymaInState(
      world,
      KYMA,
      'Error',
      (k) => k.status?.modules?.find((m) => m.name === 'papa')?.state === 'Ready',
    );
    const reason = kyma.status?.modules?.find((m) => m.name === 'broken')?.message ?? '';
    expect(reason).toContain('ProgressDeadlineExceeded');
    const broken = (await manifestsOf(world, KYMA)).find(
      (m) => m.metadata.labels?.['operator.kyma-project.io/module-name'] === 'broken',
    );

    const why = await cli('why', KYMA, 'broken', '--kubeconfig', kubeconfig);
    expect(why.stderr).toBe('');
    expect(why.code).toBe(0);
    const lines = why.stdout.split('\n');
    expect(lines[0]).toMatch(new RegExp(`^Kyma ${KCP_NAMESPACE}/${KYMA}: Error`));
    expect(lines).toContain(`  module broken (channel regular): Error — ${reason}`);
    expect(lines).toContain('    resolution: Resolved 1.0.0');
    expect(
      lines.some(
        (l) =>
          l.startsWith(`    Manifest ${KCP_NAMESPACE}/${broken?.metadata.name} 1.0.0: Error — `) &&
          l.includes('ProgressDeadlineExceeded'),
      ),
    ).toBe(true);
    expect(lines.some((l) => /^ {6}runtime objects \(\d+\): .*Deployment kyma-system\/broken-manager/.test(l))).toBe(
      true,
    );
    // Error from Processing, or at once when the call's rollout watch saw the progress deadline pass (ADR 61).
    const toError = new RegExp(`Warning StateChanged Manifest/${broken?.metadata.name}: (Processing|new) → Error`);
    expect(lines.some((l) => toError.test(l))).toBe(true);
    // Only the module asked about gets a section (the Kyma's Events may quote another module's progress).
    expect(lines.filter((l) => /^ {2}module /.test(l))).toEqual([
      `  module broken (channel regular): Error — ${reason}`,
    ]);

    const status = await cli('status', '--kubeconfig', kubeconfig);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(/^Kymas: \d+ — .*Error \d+/);
    expect(status.stdout.split('\n').some((l) => /^broken\s+1\.0\.0\s+regular\s+Error\s+1$/.test(l))).toBe(true);
    // The same from the fleet component (memory, not the KCP).
    const viaFleet = await cli('status', '--fleet', world.runner.fleet.url);
    expect(viaFleet.stdout.split('\n').some((l) => /^broken\s+1\.0\.0\s+regular\s+Error\s+1$/.test(l))).toBe(true);
    expect(
      (await cli('why', KYMA, 'broken', '--fleet', world.runner.fleet.url)).stdout.split('\n').slice(0, 3),
    ).toEqual(lines.slice(0, 3));
    const json = JSON.parse((await cli('status', '--json', '--kubeconfig', kubeconfig)).stdout) as {
      modules: { module: string; state: string; kymas: number }[];
    };
    expect(json.modules).toContainEqual({
      module: 'papa',
      version: '1.0.0',
      channel: 'regular',
      state: 'Ready',
      kymas: 1,
    });

    // Metrics: the fleet component's gauges (upstream names) and the functions' requeue counter.
    const kymaError = new RegExp(
      `^lifecycle_mgr_kyma_state\\{kyma_name="${KYMA}",shoot="",instance_id="",state="Error"\\} 1$`,
      'm',
    );
    const gauges = await eventually('the fleet component has the Kyma in Error', async () => {
      const text = await scrape(world.runner.fleet.url);
      return kymaError.test(text) && text;
    });
    expect(gauges).toMatch(
      new RegExp(
        `^lifecycle_mgr_module_state\\{kyma_name="${KYMA}",shoot="",instance_id="",module_name="broken",state="Error"\\} 1$`,
        'm',
      ),
    );
    expect(gauges).toMatch(
      new RegExp(
        `^lifecycle_mgr_module_state\\{kyma_name="${KYMA}",shoot="",instance_id="",module_name="papa",state="Ready"\\} 1$`,
        'm',
      ),
    );
    expect(await scrape(world.runner.functions.get('apply-remote') ?? '')).toMatch(
      /^lifecycle_mgr_requeue_reason_total\{requeue_reason="manifest_sync_resources_enqueue_required",requeue_type="intended"\} [1-9]/m,
    );
    const summary = (await (await fetch(new URL('/api/fleet', world.runner.fleet.url))).json()) as {
      modules: unknown[];
    };
    expect(summary.modules).toContainEqual({
      module: 'broken',
      version: '1.0.0',
      channel: 'regular',
      state: 'Error',
      kymas: 1,
    });

    // Events: the Kyma's and the Manifest's state changes, each change once although many calls saw the same state.
    const kymaEvents = await eventsAbout(KYMA);
    expect(
      kymaEvents.some(
        (e) => e.type === 'Warning' && e.reason === 'StateChanged' && e.message?.includes('→ Error: module broken: '),
      ),
    ).toBe(true);
    // Upstream's reasons (ADR 40): the runtime Kyma created from the KCP spec; metrics without shoot and instance id.
    expect(kymaEvents.some((e) => e.type === 'Normal' && e.reason === 'RemoteInstallation')).toBe(true);
    expect(kymaEvents.find((e) => e.reason === 'MetricsError')).toMatchObject({
      type: 'Warning',
      message:
        "the Kyma's metrics have no shoot or instance_id: it lacks the annotation skr-domain and the label kyma-project.io/instance-id",
    });
    const manifestEvents = (await eventsAbout(broken?.metadata.name ?? '')).filter((e) => e.reason === 'StateChanged');
    const messages = manifestEvents.map((e) => e.message);
    expect(new Set(messages).size).toBe(messages.length);
  }, 240_000);

  it('why on a blocked deletion names the blocking object; each deletion step is an Event; the Kyma goes once it is unblocked', async () => {
    const runtime = world.runtimes[0];
    if (!runtime) throw new Error('runtime missing');
    await userCr(runtime, 'papa', 'mine', 'team-fleet', ['test.kyma-project.io/keep']);
    await deleteKyma(world, KYMA);
    const blocked = await eventually(
      "the deletion waits for the user's Papa CR",
      async () => {
        const why = await cli('why', KYMA, '--kubeconfig', kubeconfig);
        return (
          why.stdout.split('\n')[0]?.includes('Papa team-fleet/mine [finalizers: test.kyma-project.io/keep]') && why
        );
      },
      120_000,
    );
    expect(blocked.stdout.split('\n')[0]).toMatch(
      new RegExp(`^Kyma ${KCP_NAMESPACE}/${KYMA}: Deleting \\(being deleted\\) — waiting for modules to be deleted: `),
    );
    const events = await eventsAbout(KYMA);
    expect(events.map((e) => e.reason)).toEqual(
      expect.arrayContaining(['SetKcpKymaStateDeleting', 'DeleteManifests', 'EnsureManifestDeletion']),
    );
    const waiting = events.filter((e) => e.reason === 'EnsureManifestDeletion');
    expect(waiting.every((e) => e.type === 'Warning')).toBe(true);
    expect(new Set(waiting.map((e) => e.message)).size).toBe(waiting.length);

    await dropFinalizers(runtime, crRef('papa', 'mine', 'team-fleet'));
    await runtime.delete(crRef('papa', 'mine', 'team-fleet'));
    await world.runner.resync(); // the runtime change makes no KCP event; the retries may have run out meanwhile
    await kymaGone(world, KYMA, 120_000);
    await eventually(
      "the deleted Kyma's series are gone",
      async () => !(await scrape(world.runner.fleet.url)).includes(`kyma_name="${KYMA}"`),
    );
    const missing = await cli('why', KYMA, '--kubeconfig', kubeconfig);
    expect(missing).toMatchObject({ code: 1, stderr: `error: no Kyma ${KCP_NAMESPACE}/${KYMA}\n` });
  }, 300_000);

  // The install's trace is read from its Manifest (apply-remote's status write in that trace): the Kyma's lastTrace may
  // already be a later chain's (the runtime Kyma appearing: resolve-template and aggregate-status only).
  it('trace: the install trace is in the log lines of every function of its chain, and why shows the Kyma’s last trace with a link', async () => {
    await connectRuntime(world, 'fleet-t', 1);
    await applyKyma(world, 'fleet-t', { channel: 'regular', modules: [{ name: 'papa' }] });
    await kymaInState(world, 'fleet-t', 'Ready', (k) => k.status?.modules?.[0]?.state === 'Ready');
    const installed = (await manifestsOf(world, 'fleet-t'))[0];
    const traceId = /^00-([0-9a-f]{32})-[0-9a-f]{16}-0[01]$/.exec(installed?.status?.lastTrace ?? '')?.[1];
    expect(traceId).toBeDefined();
    const chain = ['resolve-template', 'render-manifest', 'apply-remote', 'aggregate-status'];
    const traced = await eventually(`log lines of ${chain.join(', ')} with trace ${traceId}`, async () => {
      const lines = (await readFile(world.logFile, 'utf8'))
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { fn?: string; traceId?: string; object?: string });
      const withTrace = lines.filter((l) => l.traceId === traceId);
      const functions = new Set(withTrace.map((l) => l.fn));
      return chain.every((fn) => functions.has(fn)) && withTrace;
    });
    expect(traced.some((l) => l.object === `Kyma ${KCP_NAMESPACE}/fleet-t`)).toBe(true);
    expect(traced.some((l) => l.object?.startsWith(`Manifest ${KCP_NAMESPACE}/fleet-t-`))).toBe(true);
    const last = /^00-([0-9a-f]{32})-/.exec((await getKyma(world, 'fleet-t'))?.status?.lastTrace ?? '')?.[1] ?? '';
    expect(last).toMatch(/^[0-9a-f]{32}$/);
    const link = 'https://jaeger.example/trace/{traceId}';
    expect((await cli('why', 'fleet-t', '--kubeconfig', kubeconfig, '--trace-url', link)).stdout).toContain(
      `last trace: ${last} https://jaeger.example/trace/${last}`,
    );
  }, 240_000);

  it('refuses bad input with exit code 2 and says what is expected', async () => {
    expect(await cli('why')).toMatchObject({
      code: 2,
      stderr: 'error: why needs the name of a Kyma: why <kyma> [module]\n',
    });
    expect(await cli('status', '--kubeconfig', join(dir, 'missing'))).toMatchObject({
      code: 2,
      stderr: `error: cannot read the kubeconfig ${join(dir, 'missing')}\n`,
    });
    expect((await cli('frobnicate')).stderr).toBe(
      'error: unknown command "frobnicate": expected status, why or plan\n',
    );
    expect((await cli('--help')).stdout).toContain('why <kyma> [module]');
    // A kubeconfig that does not parse: the error names the file, never quotes it (a YAML error would show the token).
    const broken = join(dir, 'broken.kubeconfig');
    await writeFile(broken, 'apiVersion: v1\nusers:\n- name: x\n  user: {token: "do-not-print-me", bad: [\n', {
      mode: 0o600,
    });
    expect(await cli('status', '--kubeconfig', broken)).toMatchObject({
      code: 2,
      stderr: `error: the kubeconfig ${broken} is not usable (not a kubeconfig, or no current cluster)\n`,
    });
    expect((await cli('status', '--fleet', 'not a url')).stderr).toBe(
      'error: --fleet "not a url": expected the fleet component\'s base URL, e.g. http://127.0.0.1:8080\n',
    );
  });
});
