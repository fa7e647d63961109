// The measured fleet on the real harness: KCP + K runtime API servers (with controller-manager, scheduler, kwok) +
// registry, M sample modules (plus one for the edits), and N Kymas spread round-robin over the runtimes, each in a
// runtime namespace of its own (docs/adr/0013).
import { startControlPlane, type ControlPlane } from '../local/controlplane/index.ts';
import { RUNTIME_NAMESPACE_ANNOTATION } from '../shared/core/runtime-scope.ts';
import { ANNOTATION, API_VERSION, KCP_NAMESPACE, LABEL } from '../shared/core/vocabulary.ts';
import { KubeClient } from '../shared/kube/client.ts';
import { installCrds } from '../local/controlplane/crds.ts';
import { publishSampleModule, setReleaseChannels } from '../tools/module/publish.ts';
import { RegistryClient } from '../shared/oci/registry.ts';
import type { BenchSettings } from './args.ts';

/** kube-apiserver flags for load, stated in every result: no priority-and-fairness queuing, generous in-flight caps. */
/** Server flags for load; profiling on so a run can be examined (`kubectl get --raw '/debug/pprof/profile?seconds=15'`). */
export const LOAD_FLAGS = [
  '--enable-priority-and-fairness=false',
  '--max-requests-inflight=2000',
  '--max-mutating-requests-inflight=1000',
  '--profiling=true',
];

const NAMES = [
  'alpha',
  'bravo',
  'charlie',
  'delta',
  'echo',
  'foxtrot',
  'golf',
  'hotel',
  'india',
  'juliet',
  'kilo',
  'lima',
  'mike',
  'november',
  'oscar',
  'papa',
  'quebec',
  'romeo',
  'sierra',
  'tango',
];
/** The module the edits add (not among the M every Kyma starts with). */
export const EDIT_MODULE = 'zulu';
const VERSION = '1.0.0';
/** The version the release phase (--release) moves the first module's regular channel to. */
export const RELEASE_VERSION = '1.1.0';

export interface Fleet {
  plane: ControlPlane;
  kcp: KubeClient;
  runtimes: KubeClient[];
  registryHost: string;
  modules: string[];
  /** Each Kyma alone on its runtime API server, in kyma-system (--runtime-per-kyma). */
  runtimePerKyma: boolean;
}

export const kymaName = (i: number) => `kyma-${String(i).padStart(5, '0')}`;

export async function startFleet(settings: BenchSettings, say: (line: string) => void): Promise<Fleet> {
  // Knative's pods (--engine knative) run on the KCP as workloads do on a real one.
  const plane = await startControlPlane({
    runtimes: settings.runtimes,
    kcpWorkloads: settings.engine === 'knative',
    runtimeWorkloads: settings.rollouts === 'simulated' ? 'simulated' : true,
    apiServerFlags: LOAD_FLAGS,
    progress: say,
  });
  const kcp = await KubeClient.from(plane.kcp.kubeConfig());
  await installCrds(plane.kcp.kubeConfig());
  await kcp.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: KCP_NAMESPACE } }).catch(() => undefined);
  const runtimes = await Promise.all(plane.runtimes.map((r) => KubeClient.from(r.kubeConfig())));
  const registryHost = plane.registry?.host ?? '';
  const registry = new RegistryClient({ host: registryHost, plainHttp: true });
  const modules = NAMES.slice(0, settings.modules);
  for (const name of [...modules, ...(settings.edits + settings.busyEdits ? [EDIT_MODULE] : [])]) {
    await publishSampleModule(registry, kcp, { name, version: VERSION, namespace: KCP_NAMESPACE });
    await setReleaseChannels(kcp, KCP_NAMESPACE, name, [{ channel: 'regular', version: VERSION }]);
  }
  // The release phase's new version, published up front so that its upload is not part of what it measures.
  if (settings.release && modules[0])
    await publishSampleModule(registry, kcp, { name: modules[0], version: RELEASE_VERSION, namespace: KCP_NAMESPACE });
  say(
    `${modules.length} modules published${settings.edits + settings.busyEdits ? ` (+ ${EDIT_MODULE} for the edits)` : ''}`,
  );
  return { plane, kcp, runtimes, registryHost, modules, runtimePerKyma: settings.runtimePerKyma };
}

/**
 * Creates each Kyma's kubeconfig Secret (runtime namespace = the Kyma's name; a kubeconfig of its own, with the
 * credentials of its runtime API server) and the Kyma asking for every module,
 * `parallel` at a time; `created` is told the moment each Kyma exists.
 */
export async function createKymas(
  fleet: Fleet,
  count: number,
  parallel: number,
  created: (name: string, at: number) => void,
): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) {
      const name = kymaName(i);
      const runtime = fleet.plane.runtimes[i % fleet.plane.runtimes.length];
      await fleet.kcp.apply(
        {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: {
            name,
            namespace: KCP_NAMESPACE,
            labels: { [LABEL.kymaName]: name },
            annotations: fleet.runtimePerKyma ? {} : { [RUNTIME_NAMESPACE_ANNOTATION]: name },
          },
          // One kubeconfig per Kyma, as in production (a runtime each): the comment makes its bytes the Kyma's own, so no
          // runtime client is shared between Kymas (ADR 18) although they share the API server and its credentials.
          data: { config: Buffer.from(`# runtime of Kyma ${name}\n${runtime?.kubeconfig ?? ''}`).toString('base64') },
        },
        'bench',
      );
      // As the provisioning broker makes them: the runtime's domain and instance id, which upstream's metrics need.
      const metadata = {
        name,
        namespace: KCP_NAMESPACE,
        annotations: { [ANNOTATION.skrDomain]: `${name}.kyma.bench` },
        labels: { [LABEL.instanceId]: name },
      };
      await fleet.kcp.apply(
        {
          apiVersion: API_VERSION,
          kind: 'Kyma',
          metadata,
          spec: { channel: 'regular', modules: fleet.modules.map((m) => ({ name: m })) },
        },
        'bench',
      );
      created(name, performance.now());
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, count) }, worker));
}
