// Reliability matrix, fault "the function host dies": the lifecycle manager runs as its own process (`node
// local/start.ts` against the shared KCP, as `npm start` with KUBECONFIG does); it is SIGKILLed while a Kyma with two
// modules is half-way through the chain (a Manifest exists, not every module is Ready) — every event in flight is
// lost, nothing else drives the chain, so it stays stuck — and started again: the resync at start finds the Kyma and
// its Manifests not Ready and the chain completes without anyone touching an object.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { publishSampleModule, setReleaseChannels } from '../../tools/module/publish.ts';
import {
  applyKyma,
  connectRuntime,
  deleteKyma,
  eventually,
  kymaGone,
  kymaInState,
  manifestsOf,
  type World,
} from '../e2e/world.ts';
import {
  chainState,
  kcpKubeconfigFile,
  resyncCounts,
  startFunctionHostProcess,
  worldWithoutRunner,
  type ChainState,
  type FunctionHostProcess,
} from './function-host-helpers.ts';

const KYMA = 'kyma-killed-host';
const MODULES = ['bravo', 'charlie'];
const RUNTIME = 0;

let world: World;
let kubeconfig: Awaited<ReturnType<typeof kcpKubeconfigFile>>;
let host: FunctionHostProcess | undefined;

beforeAll(async () => {
  world = await worldWithoutRunner();
  for (const name of MODULES) {
    await publishSampleModule(world.registry, world.kcp, { name, version: '1.0.0', namespace: KCP_NAMESPACE });
    await setReleaseChannels(world.kcp, KCP_NAMESPACE, name, [{ channel: 'regular', version: '1.0.0' }]);
  }
  kubeconfig = await kcpKubeconfigFile();
  host = await startFunctionHostProcess(kubeconfig.path, 'host-first');
});

afterAll(async () => {
  if (!world || !kubeconfig) return;
  if (!host || (await isGone(host))) host = await startFunctionHostProcess(kubeconfig.path, 'host-cleanup');
  await deleteKyma(world, KYMA).catch(() => undefined);
  await kymaGone(world, KYMA).catch(() => undefined);
  await host.stop('SIGTERM');
  await kubeconfig.remove();
});

const isGone = (process: FunctionHostProcess) => Promise.race([process.exited.then(() => true), sleep(0, false)]);
const ready = (state: string | undefined) => state === 'Ready';
/** Half-way: at least one Manifest, and neither the Kyma nor every module Ready. */
const midChain = (s: ChainState) =>
  s.manifests.length >= 1 && !ready(s.kyma.state) && s.manifests.filter((m) => ready(m.state)).length < MODULES.length;
const deployment = (name: string) =>
  world.runtimes[RUNTIME]?.get<{ kind?: string; status?: { availableReplicas?: number } }>({
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    namespace: 'kyma-system',
    name,
  });

describe('fault: the function host process is killed mid-chain and restarted', () => {
  it('stays stuck while the host is down and converges to Ready after the restart, with no manual action', async () => {
    await connectRuntime(world, KYMA, RUNTIME);
    await applyKyma(world, KYMA, { channel: 'regular', modules: MODULES.map((name) => ({ name })) });
    await eventually(
      'a Manifest exists and not every module is Ready yet',
      async () => midChain(await chainState(world, KYMA)),
      60_000,
    );
    const killed = await host?.stop('SIGKILL');
    expect(killed).toEqual({ code: null, signal: 'SIGKILL' });

    await sleep(1_000); // requests the process had already sent are answered by the KCP
    const frozen = await chainState(world, KYMA);
    expect(frozen.kyma.state, 'killed before the Kyma was Ready').not.toBe('Ready');
    expect(midChain(frozen), `killed mid-chain: ${JSON.stringify(frozen)}`).toBe(true);
    await sleep(5_000);
    expect(await chainState(world, KYMA), 'nothing else drives the chain while the host is down').toEqual(frozen);

    const restartedAt = Date.now();
    host = await startFunctionHostProcess(kubeconfig.path, 'host-restarted');
    const kyma = await kymaInState(world, KYMA, 'Ready', (k) => k.status?.modules?.length === MODULES.length);
    console.log(
      `[faults] killed at ${JSON.stringify(frozen)}; Ready ${((Date.now() - restartedAt) / 1000).toFixed(1)} s after the restart`,
    );

    expect(kyma.status?.modules?.map((m) => [m.name, m.state, m.version]).sort()).toEqual(
      MODULES.map((m) => [m, 'Ready', '1.0.0']),
    );
    const manifests = await manifestsOf(world, KYMA);
    expect(
      manifests.map((m) => [m.metadata.labels?.['operator.kyma-project.io/module-name'], m.status?.state]).sort(),
    ).toEqual(MODULES.map((m) => [m, 'Ready']));
    for (const module of MODULES)
      expect(
        (await deployment(`${module}-manager`))?.status?.availableReplicas,
        `${module}-manager on the runtime`,
      ).toBe(1);
    const [atStart] = resyncCounts(host.lines);
    expect(atStart?.Kyma, 'the resync at start found the Kyma that was not Ready').toBeGreaterThanOrEqual(1);
  });
});
