import { pino } from 'pino';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startControlPlane, type ControlPlane } from './controlplane/index.ts';
import type { Kyma } from '../shared/core/kyma.ts';
import { API_VERSION, KCP_NAMESPACE, LABEL } from '../shared/core/vocabulary.ts';
import { KubeClient } from '../shared/kube/client.ts';
import { installCrds } from './controlplane/crds.ts';
import { publishSampleModule, setReleaseChannels } from '../tools/module/publish.ts';
import { RegistryClient } from '../shared/oci/registry.ts';
import type { Config } from '../shared/host/config.ts';
import { createLogger } from '../shared/host/logger.ts';
import { startLocalRunner, type LocalRunner } from './runner/local-runner.ts';

export const SAMPLE_KYMA = 'local-kyma';

/** The embedded default: a local control plane with a sample module, a Kyma asking for it, and the runner. */
export async function startEmbedded(
  config: Config,
  say: (line: string) => void,
): Promise<{ plane: ControlPlane; runner: LocalRunner; kcp: KubeClient }> {
  // Single-cluster mode (LIFECYCLE_IN_CLUSTER=true, ADR 21): the KCP also rolls out workloads, the sample Kyma lives in it.
  const runtimes = config.inCluster ? config.embeddedRuntimes : Math.max(1, config.embeddedRuntimes);
  const plane = await startControlPlane({ runtimes, kcpWorkloads: config.inCluster, progress: say });
  const kcp = await KubeClient.from(plane.kcp.kubeConfig());
  await installCrds(plane.kcp.kubeConfig());
  await kcp.create({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: KCP_NAMESPACE } });
  const registryHost = plane.registry?.host ?? '';
  await publishSample(kcp, registryHost, say);
  const logFile = join(plane.runDir, 'logs', 'lifecycle-functions.log');
  const log = createLogger('lifecycle', config.logLevel, pino.destination({ dest: logFile, sync: false, mkdir: true }));
  const runner = await startLocalRunner({
    kcp: plane.kcp.kubeConfig(),
    config: {
      ...config,
      helmBinary: config.helmBinary ?? plane.binaries.helm,
      registry: { ...config.registry, base: registryHost, plainHttp: true, credentialSecret: undefined },
    },
    log,
  });
  say(`functions running (logs: ${logFile})`);
  if (config.inCluster) await createInClusterKyma(kcp, say);
  else await createRemoteKyma(kcp, plane, say);
  return { plane, runner, kcp };
}

/** The module "sample" in the plane's registry: 1.0.0 on channel regular, 2.0.0 on fast. */
export async function publishSample(kcp: KubeClient, registryHost: string, say: (line: string) => void): Promise<void> {
  const registry = new RegistryClient({ host: registryHost, plainHttp: true });
  for (const version of ['1.0.0', '2.0.0'])
    await publishSampleModule(registry, kcp, { name: 'sample', version, namespace: KCP_NAMESPACE });
  await setReleaseChannels(kcp, KCP_NAMESPACE, 'sample', [
    { channel: 'regular', version: '1.0.0' },
    { channel: 'fast', version: '2.0.0' },
  ]);
  say('published module "sample": 1.0.0 on channel regular, 2.0.0 on channel fast');
}

/** The sample Kyma for the first runtime: its kubeconfig Secret, then the Kyma. */
export async function createRemoteKyma(
  kcp: KubeClient,
  plane: ControlPlane,
  say: (line: string) => void,
): Promise<void> {
  const [runtime] = plane.runtimes;
  await kcp.apply(
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: SAMPLE_KYMA, namespace: KCP_NAMESPACE, labels: { [LABEL.kymaName]: SAMPLE_KYMA } },
      data: { config: Buffer.from(runtime?.kubeconfig ?? '').toString('base64') },
    },
    'lifecycle-embedded',
  );
  await kcp.apply(
    {
      apiVersion: API_VERSION,
      kind: 'Kyma',
      metadata: { name: SAMPLE_KYMA, namespace: KCP_NAMESPACE },
      spec: { channel: 'regular', modules: [{ name: 'sample' }] },
    },
    'lifecycle-embedded',
  );
  say(`created Kyma ${SAMPLE_KYMA} (channel regular, module sample) for ${runtime?.name ?? 'runtime-1'}`);
}

/** The sample Kyma in single-cluster mode: no kubeconfig Secret, its module goes into the KCP itself. */
async function createInClusterKyma(kcp: KubeClient, say: (line: string) => void): Promise<void> {
  const metadata = { name: SAMPLE_KYMA, namespace: KCP_NAMESPACE, labels: { [LABEL.inCluster]: 'true' } };
  await kcp.apply(
    { apiVersion: API_VERSION, kind: 'Kyma', metadata, spec: { channel: 'regular', modules: [{ name: 'sample' }] } },
    'lifecycle-embedded',
  );
  say(
    `created Kyma ${SAMPLE_KYMA} (channel regular, module sample) in single-cluster mode: the module goes into the KCP itself`,
  );
}

/** Prints every state change of the sample Kyma until it is Ready. */
export async function followKyma(kcp: KubeClient, say: (line: string) => void): Promise<void> {
  let last = '';
  for (;;) {
    const kyma = await kcp.get<Kyma>({
      apiVersion: API_VERSION,
      kind: 'Kyma',
      namespace: KCP_NAMESPACE,
      name: SAMPLE_KYMA,
    });
    const modules = (kyma?.status?.modules ?? [])
      .map((m) => `${m.name} ${m.version ?? ''} ${m.state ?? ''}`.trim())
      .join(', ');
    const line = `Kyma ${SAMPLE_KYMA}: ${kyma?.status?.state ?? 'waiting'}${modules ? ` (${modules})` : ''}`;
    if (line !== last) say(line);
    last = line;
    if (kyma?.status?.state === 'Ready') return;
    await sleep(500);
  }
}
