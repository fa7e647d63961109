// Validation of manifests/ as rendered by the real kustomize (kubectl kustomize): the strict server-side dry-run on a
// real kube-apiserver that serves our CRDs and Knative's published CRDs, plus what Knative's admission webhooks
// would check and a CRD schema cannot (required fields, filter grammar, scale bounds), via the typed Knative models
// from npm and the same parsers the local broker uses.
import { ApiServerSource } from '@kubernetes-models/knative/sources.knative.dev/v1/ApiServerSource';
import { PingSource } from '@kubernetes-models/knative/sources.knative.dev/v1/PingSource';
import { SinkBinding } from '@kubernetes-models/knative/sources.knative.dev/v1/SinkBinding';
import { Broker } from '@kubernetes-models/knative/eventing.knative.dev/v1/Broker';
import { Trigger } from '@kubernetes-models/knative/eventing.knative.dev/v1/Trigger';
import { Service } from '@kubernetes-models/knative/serving.knative.dev/v1/Service';
import { parseAllDocuments, stringify } from 'yaml';
import type { Cluster } from '../../local/controlplane/index.ts';
import { parseApiServerSources, parsePingSources, parseTriggers } from '../../local/eventing/index.ts';
import { kubectl, kubectlOk } from './kubectl.ts';
import { schemaOf, unknownFields } from './schema-fields.ts';

export interface Doc {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  spec?: Record<string, unknown>;
  [key: string]: unknown;
}

export async function render(dir: string): Promise<Doc[]> {
  return parseAllDocuments(await kubectlOk(['kustomize', dir]))
    .map((d) => d.toJSON() as Doc)
    .filter(Boolean);
}

export const toYaml = (docs: readonly Doc[]) => docs.map((d) => stringify(d)).join('---\n');
export const idOf = (d: Doc) => `${d.kind} ${d.metadata.namespace ? `${d.metadata.namespace}/` : ''}${d.metadata.name}`;

type Model = { validate(): void };
const MODELS: Record<string, (d: Doc) => Model> = {
  'sources.knative.dev/v1 ApiServerSource': (d) => new ApiServerSource(d as never),
  'sources.knative.dev/v1 PingSource': (d) => new PingSource(d as never),
  'sources.knative.dev/v1 SinkBinding': (d) => new SinkBinding(d as never),
  'eventing.knative.dev/v1 Broker': (d) => new Broker(d as never),
  'eventing.knative.dev/v1 Trigger': (d) => new Trigger(d as never),
  'serving.knative.dev/v1 Service': (d) => new Service(d as never),
};

/** The generated SinkBinding model marks `status` required (not omitempty in Go); nothing a user writes has one. */
const MODEL_QUIRKS = [/^data must have required property status$/];

function modelProblems(doc: Doc): string[] {
  const model = MODELS[`${doc.apiVersion} ${doc.kind}`];
  if (!model)
    return doc.apiVersion.includes('knative.dev')
      ? [`${idOf(doc)}: no published model for ${doc.apiVersion} ${doc.kind}`]
      : [];
  try {
    model(doc).validate();
    return [];
  } catch (e) {
    const messages = (e as Error).message.split(', ').filter((m) => !MODEL_QUIRKS.some((q) => q.test(m)));
    return messages.length ? [`${idOf(doc)}: ${messages.join(', ')}`] : [];
  }
}

/**
 * Problems a Knative installation's admission would report, found without one (empty = none): the typed models'
 * schemas, fields the Knative CRDs (`crds`) do not declare, filter grammar, source specs, Service rules.
 */
export function knativeProblems(docs: readonly Doc[], crds: readonly object[]): string[] {
  const problems: string[] = [];
  for (const doc of docs) {
    problems.push(...modelProblems(doc));
    if (doc.apiVersion.includes('knative.dev')) {
      const schema = schemaOf(crds, doc.apiVersion, doc.kind);
      if (!schema) problems.push(`${idOf(doc)}: Knative serves no ${doc.apiVersion} ${doc.kind}`);
      problems.push(...unknownFields(schema, doc).map((f) => `${idOf(doc)}: unknown field ${f}`));
    }
    try {
      if (doc.kind === 'Trigger') parseTriggers(stringify(doc), idOf(doc));
      if (doc.kind === 'ApiServerSource') parseApiServerSources(stringify(doc), idOf(doc));
      if (doc.kind === 'PingSource') parsePingSources(stringify(doc), idOf(doc));
    } catch (e) {
      problems.push((e as Error).message);
    }
    if (doc.kind === 'Service' && doc.apiVersion === 'serving.knative.dev/v1') problems.push(...serviceProblems(doc));
  }
  return problems;
}

/** Knative Serving webhook rules we rely on: one container, probes on its port, integer scale bounds min ≤ max. */
function serviceProblems(doc: Doc): string[] {
  type Probe = { httpGet?: { port?: unknown } } | undefined;
  const template = doc.spec?.template as
    | {
        metadata?: { annotations?: Record<string, string> };
        spec?: {
          containers?: {
            ports?: { containerPort?: number; name?: string }[];
            readinessProbe?: Probe;
            livenessProbe?: Probe;
          }[];
        };
      }
    | undefined;
  const problems: string[] = [];
  const containers = template?.spec?.containers ?? [];
  if (containers.length !== 1) problems.push(`${idOf(doc)}: exactly one container expected, got ${containers.length}`);
  for (const c of containers) {
    const port = c.ports?.[0];
    for (const probe of [c.readinessProbe, c.livenessProbe]) {
      const at = probe?.httpGet?.port;
      if (at !== undefined && at !== port?.containerPort && at !== port?.name)
        problems.push(`${idOf(doc)}: Probe port must match container port (${String(at)})`);
    }
  }
  const annotations = template?.metadata?.annotations ?? {};
  const scale = (key: string) => annotations[`autoscaling.knative.dev/${key}`];
  const [min, max] = [scale('min-scale'), scale('max-scale')].map((v) => (v === undefined ? undefined : Number(v)));
  for (const [name, v] of [
    ['min-scale', min],
    ['max-scale', max],
  ] as const) {
    if (v !== undefined && (!Number.isInteger(v) || v < 0))
      problems.push(`${idOf(doc)}: autoscaling.knative.dev/${name} must be a non-negative integer`);
  }
  if (min !== undefined && max !== undefined && max > 0 && min > max)
    problems.push(`${idOf(doc)}: min-scale ${min} > max-scale ${max}`);
  return problems;
}

/** The strict server-side dry-run of every document (unknown or mistyped fields fail); '' when accepted. */
export async function dryRunProblems(cluster: Cluster, docs: readonly Doc[]): Promise<string> {
  const result = await kubectl(
    ['apply', '--server-side', '--dry-run=server', '--validate=strict', '--field-manager=manifests-test', '-f', '-'],
    { cluster, stdin: toYaml(docs) },
  );
  return result.code === 0 ? '' : result.stderr.trim();
}
