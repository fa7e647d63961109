// manifests/ as `kubectl apply -k manifests/` would install it: rendered by the real kustomize, checked by a strict
// server-side dry-run on a real kube-apiserver serving our CRDs and Knative's published CRDs (1.15 and 1.23), by the
// typed Knative models, and for the wiring between the pieces. Broken copies must fail the same checks.
import { cp, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Cluster } from '../../local/controlplane/index.ts';
import { FUNCTIONS } from '../../local/runner/functions.ts';
import { MANIFESTS_DIR } from '../../local/runner/local-runner.ts';
import { inject } from 'vitest';
import { testBinaries } from './audited-kcp.ts';
import { KNATIVE_RELEASES, knativeCrds } from './knative-crds.ts';
import { kubectlOk } from './kubectl.ts';
import { dryRunProblems, idOf, knativeProblems, render, toYaml, type Doc } from './validate.ts';

let cluster: Cluster;
let docs: Doc[];
let latest: object[];
const [, LATEST] = KNATIVE_RELEASES;
const ofKind = (kind: string, all = docs) => all.filter((d) => d.kind === kind);
const named = (kind: string, name: string) => docs.find((d) => d.kind === kind && d.metadata.name === name);
const FUNCTION_NAMES = Object.keys(FUNCTIONS);
/** The functions a user's edit reaches through events of the user lane (the runtime watch's, resolve-template's reply). */
const USER_LANE = ['resolve-template', 'render-manifest', 'aggregate-status', 'purge'];
type Filters = { spec?: Record<string, unknown> } | undefined;
/** A Trigger's filters but those on its lane. */
const typeFilters = (trigger: Filters) =>
  ((trigger?.spec?.filters ?? []) as object[]).filter((f) => !JSON.stringify(f).includes('lifecyclelane'));

beforeAll(async () => {
  docs = await render(MANIFESTS_DIR);
  latest = await knativeCrds(LATEST);
  cluster = await startCluster({
    name: 'knative-schemas',
    runDir: inject('controlPlane').runDir,
    binaries: testBinaries(),
  });
  await kubectlOk(['create', 'namespace', 'kcp-system'], { cluster });
});

afterAll(async () => {
  await cluster?.stop();
});

async function installKnative(release: (typeof KNATIVE_RELEASES)[number]): Promise<void> {
  const crds = await knativeCrds(release);
  await kubectlOk(['apply', '--server-side', '--force-conflicts', '--field-manager=knative', '-f', '-'], {
    cluster,
    stdin: toYaml(crds as Doc[]),
  });
  await kubectlOk(
    ['wait', '--for=condition=Established', '--timeout=60s', ...crds.map((c) => `crd/${c.metadata?.name ?? ''}`)],
    { cluster },
  );
}

describe('the rendered manifests', () => {
  it('hold every piece: namespace, CRDs, config, one account + Service + Trigger (+ background and user Triggers) per function, sources, broker', () => {
    expect(ofKind('Namespace').map((d) => d.metadata.name)).toEqual(['kcp-system']);
    expect(
      ofKind('CustomResourceDefinition')
        .map((d) => d.metadata.name)
        .sort(),
    ).toEqual(
      ['kymas', 'manifests', 'modulereleasemetas', 'moduletemplates'].map((p) => `${p}.operator.kyma-project.io`),
    );
    for (const fn of FUNCTION_NAMES) {
      const service = named('Service', fn);
      expect(service?.apiVersion, fn).toBe('serving.knative.dev/v1');
      expect(service?.metadata.labels?.['networking.knative.dev/visibility'], `${fn} is cluster-local`).toBe(
        'cluster-local',
      );
      const template = service?.spec?.template as {
        metadata: { annotations: Record<string, string> };
        spec: {
          serviceAccountName: string;
          containerConcurrency: number;
          containers: {
            readinessProbe?: { httpGet?: { path?: string } };
            livenessProbe?: { httpGet?: { path?: string } };
            envFrom?: unknown[];
            env?: { name: string; value?: string }[];
          }[];
        };
      };
      expect(template.spec.serviceAccountName).toBe(`lifecycle-${fn}`);
      expect(named('ServiceAccount', `lifecycle-${fn}`), `${fn} has its ServiceAccount`).toBeDefined();
      expect(template.spec.containerConcurrency).toBeGreaterThan(0);
      // An instance holds more calls than it runs, so the waiting ones start by lane in it, not by arrival (ADR 72).
      const runsAtOnce = template.spec.containers[0]?.env?.find((e) => e.name === 'LIFECYCLE_CALLS_AT_ONCE')?.value;
      if (fn !== 'resync') expect(Number(runsAtOnce), fn).toBeLessThan(template.spec.containerConcurrency);
      if (fn !== 'resync') expect(Number(runsAtOnce), fn).toBeGreaterThan(0);
      expect(Number(template.metadata.annotations['autoscaling.knative.dev/max-scale'])).toBeGreaterThanOrEqual(1);
      expect(template.metadata.annotations['autoscaling.knative.dev/min-scale']).toMatch(/^\d+$/);
      expect(template.spec.containers[0]?.readinessProbe?.httpGet?.path).toBe('/health/readiness');
      expect(template.spec.containers[0]?.livenessProbe?.httpGet?.path).toBe('/health/liveness');
      const triggers = ofKind('Trigger').filter(
        (t) => (t.spec?.subscriber as { ref?: { name?: string } }).ref?.name === fn,
      );
      // The resync has no background lane of its own: a PingSource tick is what starts the background work (ADR 25).
      // A user's edit reaches the Kyma functions and render-manifest: their user lane has a Trigger of its own (ADR 68).
      const lanes = fn === 'resync' ? [] : USER_LANE.includes(fn) ? ['user', 'background'] : ['background'];
      expect(
        triggers.map((t) => t.metadata.name).sort(),
        `one Trigger for ${fn}, and one for each lane of its own`,
      ).toEqual([fn, ...lanes.map((lane) => `${fn}-${lane}`)].sort());
      const main = triggers.find((t) => t.metadata.name === fn);
      const byLane = Object.fromEntries(
        lanes.map((lane) => [lane, triggers.find((t) => t.metadata.name === `${fn}-${lane}`)]),
      );
      for (const lane of lanes) {
        expect(main?.spec?.filters, `${fn}: no ${lane} events in the main lane`).toContainEqual({
          not: { exact: { lifecyclelane: lane } },
        });
        expect(byLane[lane]?.spec?.filters, `${fn}: only ${lane} events`).toContainEqual({
          exact: { lifecyclelane: lane },
        });
      }
      const background = byLane.background;
      if (background)
        expect(
          background.metadata.annotations?.['lifecycle.kyma-project.io/max-in-flight'],
          `${fn}: background deliveries bounded`,
        ).toMatch(/^[1-9][0-9]*$/);
      const user = byLane.user;
      // The user lane takes what the main Trigger takes, nothing else.
      if (user)
        expect(typeFilters(user), `${fn}: the user lane's filters are the main lane's`).toEqual(typeFilters(main));
    }
  });

  it('name every container image through the kustomization images block (one place to point at a registry)', () => {
    const images = [...ofKind('Service'), ...ofKind('Deployment')].flatMap((d) =>
      (d.spec?.template as { spec: { containers: { image: string }[] } }).spec.containers.map((c) => c.image),
    );
    expect(images).toHaveLength(FUNCTION_NAMES.length + 2); // + runtime watch, fleet
    for (const image of images) expect(image).toMatch(/^registry\.example\.internal\/lifecycle\/[a-z-]+:0\.1\.0$/);
  });

  it('wires every subscriber, sink and account to something that exists', () => {
    const brokers = ofKind('Broker').map((b) => b.metadata.name);
    for (const t of ofKind('Trigger')) {
      expect(brokers, idOf(t)).toContain(t.spec?.broker);
      expect(FUNCTION_NAMES, idOf(t)).toContain((t.spec?.subscriber as { ref: { name: string } }).ref.name);
    }
    for (const source of [...ofKind('ApiServerSource'), ...ofKind('PingSource'), ...ofKind('SinkBinding')]) {
      expect(brokers, `${idOf(source)} sink`).toContain((source.spec?.sink as { ref: { name: string } }).ref.name);
    }
    const accounts = ofKind('ServiceAccount').map((a) => a.metadata.name);
    for (const binding of [...ofKind('RoleBinding'), ...ofKind('ClusterRoleBinding')]) {
      for (const s of binding.subjects as { name: string }[]) expect(accounts, idOf(binding)).toContain(s.name);
      const ref = binding.roleRef as { kind: string; name: string };
      expect(named(ref.kind, ref.name), `${idOf(binding)} → ${ref.kind} ${ref.name}`).toBeDefined();
    }
    expect(accounts).toContain(
      (named('ApiServerSource', 'lifecycle-kcp')?.spec as { serviceAccountName: string }).serviceAccountName,
    );
    const selector = (
      named('SinkBinding', 'lifecycle-functions')?.spec?.subject as {
        selector: { matchLabels: Record<string, string> };
      }
    ).selector.matchLabels;
    const bound = ofKind('Service')
      .filter((s) => Object.entries(selector).every(([k, v]) => s.metadata.labels?.[k] === v))
      .map((s) => s.metadata.name);
    expect(bound.sort(), 'the functions that send events of their own get K_SINK').toEqual([
      'apply-remote',
      'resolve-template',
      'resync',
    ]);
    expect((named('SinkBinding', 'lifecycle-runtime-watch')?.spec?.subject as { name: string }).name).toBe(
      named('Deployment', 'lifecycle-runtime-watch')?.metadata.name,
    );
  });

  it.each(KNATIVE_RELEASES)(
    'pass a strict server-side dry-run against the CRDs of Knative $release and its admission checks',
    async (release) => {
      await installKnative(release);
      expect(await dryRunProblems(cluster, docs)).toBe('');
      expect(knativeProblems(docs, await knativeCrds(release))).toEqual([]);
    },
  );
});

describe('broken manifests fail the same checks', () => {
  beforeAll(() => installKnative(LATEST));
  const edit = (mutate: (copy: Doc[]) => void): Doc[] => {
    const copy = structuredClone(docs);
    mutate(copy);
    return copy;
  };
  /** The object at a dotted path (`spec.filters.0.any`) of a document, to edit in place. */
  const at = (root: unknown, path: string): Record<string, unknown> =>
    path.split('.').reduce<Record<string, unknown>>(
      (node, key) => {
        const next = node[key];
        if (typeof next !== 'object' || next === null) throw new Error(`no object at ${path} (${key})`);
        return next as Record<string, unknown>;
      },
      root as Record<string, unknown>,
    );
  const find = (all: Doc[], kind: string, name: string) => {
    const d = all.find((x) => x.kind === kind && x.metadata.name === name);
    if (!d) throw new Error(`${kind} ${name} missing`);
    return d;
  };

  it('a typo in a Trigger filter dialect, nested or not', () => {
    const nested = edit((all) => {
      const f = at(find(all, 'Trigger', 'apply-remote'), 'spec.filters.1.any.0.all.1');
      f.exactt = f.exact;
      delete f.exact;
    });
    expect(knativeProblems(nested, latest).join('\n')).toMatch(/unknown filter dialect exactt/);
    const top = edit((all) => {
      (find(all, 'Trigger', 'render-manifest').spec as Record<string, unknown>).filters = [{ exactt: { type: 'x' } }];
    });
    expect(knativeProblems(top, latest).join('\n')).toMatch(/unknown filter dialect exactt/);
  });

  it('a Trigger without subscriber, a Service with a misspelt probe field, a source with an unknown mode', async () => {
    const noSubscriber = edit((all) => {
      delete find(all, 'Trigger', 'purge').spec?.subscriber;
    });
    expect(knativeProblems(noSubscriber, latest).join('\n')).toMatch(/Trigger kcp-system\/purge: .*subscriber/);
    const probe = edit((all) => {
      const c = at(find(all, 'Service', 'purge'), 'spec.template.spec.containers.0');
      c.readinessProbe = { httpGett: { path: '/health/readiness' } };
    });
    expect(await dryRunProblems(cluster, probe)).toMatch(
      /spec.template.spec.containers\[0\].readinessProbe.httpGett: field not declared in schema/,
    );
    const mode = edit((all) => {
      (find(all, 'ApiServerSource', 'lifecycle-kcp').spec as Record<string, unknown>).mode = 'Resources';
    });
    expect(knativeProblems(mode, latest).join('\n')).toMatch(/spec.mode/);
  });

  it('an unknown field in a Trigger spec, a bad scale bound, an invalid CRD schema', async () => {
    const typo = edit((all) => {
      const spec = find(all, 'Trigger', 'resync').spec as Record<string, unknown>;
      spec.brokr = spec.broker;
    });
    expect(knativeProblems(typo, latest)).toEqual(['Trigger kcp-system/resync: unknown field spec.brokr']);
    const scale = edit((all) => {
      (
        find(all, 'Service', 'resync').spec?.template as { metadata: { annotations: Record<string, string> } }
      ).metadata.annotations['autoscaling.knative.dev/min-scale'] = '3';
    });
    expect(knativeProblems(scale, latest).join('\n')).toMatch(/min-scale 3 > max-scale 1/);
    const crd = edit((all) => {
      at(
        find(all, 'CustomResourceDefinition', 'kymas.operator.kyma-project.io'),
        'spec.versions.0.schema.openAPIV3Schema',
      ).type = 'strng';
    });
    expect(await dryRunProblems(cluster, crd)).toMatch(/CustomResourceDefinition/);
  });
});

describe('the Kafka component', () => {
  it('switches the Broker to class Kafka with its topic config and makes every Trigger ordered; still valid', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'manifests-kafka-'));
    await cp(MANIFESTS_DIR, join(dir, 'manifests'), { recursive: true });
    const kustomization = join(dir, 'manifests', 'kustomization.yaml');
    const text = await readFile(kustomization, 'utf8');
    const enabled = text.replace('# components:\n#   - components/kafka', 'components:\n  - components/kafka');
    expect(enabled, 'the README step: uncomment the component').not.toBe(text);
    await writeFile(kustomization, enabled);
    const kafka = await render(join(dir, 'manifests'));
    const broker = kafka.find((d) => d.kind === 'Broker');
    expect(broker?.metadata.annotations?.['eventing.knative.dev/broker.class']).toBe('Kafka');
    const config = broker?.spec?.config as { kind: string; name: string };
    expect(kafka.find((d) => d.kind === config.kind && d.metadata.name === config.name)?.data).toMatchObject({
      'default.topic.partitions': expect.any(String),
    });
    for (const t of ofKind('Trigger', kafka))
      expect(t.metadata.annotations?.['kafka.eventing.knative.dev/delivery.order'], idOf(t)).toBe('ordered');
    expect(knativeProblems(kafka, latest)).toEqual([]);
    expect(await dryRunProblems(cluster, kafka)).toBe('');
  });
});
