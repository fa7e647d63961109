// Runtime access going wrong (upstream §8.2 scenarios 19, 22, 33) on a throwaway runtime cluster: a kubeconfig
// Secret that is garbage, credentials downgraded to a user without permissions, a foreign CA, an expired token, the
// runtime disappearing.
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { loadKubeConfig, type Cluster } from '../../local/controlplane/index.ts';
import type { Kyma } from '../../shared/core/kyma.ts';
import { API_VERSION, KCP_NAMESPACE, LABEL } from '../../shared/core/vocabulary.ts';
import { KubeClient } from '../../shared/kube/client.ts';
import { publishSampleModule, setReleaseChannels } from '../../tools/module/publish.ts';
import { throwawayRuntime } from './throwaway.ts';
import { serviceAccountToken, tokenKubeconfig, withForeignCa } from './tokens.ts';
import {
  applyKyma,
  deleteKyma,
  eventually,
  kymaGone,
  kymaInState,
  manifestsOf,
  startWorld,
  stopWorld,
  type World,
} from './world.ts';

let world: World;
let cluster: Cluster;
let runtime: KubeClient;
const KYMA = 'acc';
/** A Kyma of its own for kubeconfigs that must be refused (removed again before the others start). */
const REFUSED = 'acc-refused';

const setSecret = (kubeconfig: string, kyma = KYMA) =>
  world.kcp.apply(
    {
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: kyma, namespace: KCP_NAMESPACE, labels: { [LABEL.kymaName]: kyma } },
      data: { config: Buffer.from(kubeconfig).toString('base64') },
    },
    'e2e-user',
  );
/** A Kyma event (a changed Secret is announced by the runtime watch within ~5 s; this makes the tests faster). */
const touch = (kyma = KYMA) =>
  world.kcp.mergePatch(
    { apiVersion: API_VERSION, kind: 'Kyma', namespace: KCP_NAMESPACE, name: kyma },
    { metadata: { annotations: { 'e2e/touched': String(Date.now()) } } },
  );
/** The runtime's kubeconfig with its user replaced by `user` and `cluster` fields added. */
const rewrite = (clusterFields: Record<string, unknown>, user: Record<string, unknown>) => {
  const config = parse(cluster.kubeconfig) as {
    clusters: { cluster: Record<string, unknown> }[];
    users: { user: Record<string, unknown> }[];
  };
  for (const c of config.clusters) Object.assign(c.cluster, clusterFields);
  for (const u of config.users) u.user = user;
  return stringify(config);
};
const modulesReady = (k: Kyma) => (k.status?.modules ?? []).length === 1 && k.status?.modules?.[0]?.state === 'Ready';

beforeAll(async () => {
  world = await startWorld({ LIFECYCLE_DRIFT_PERIOD_MINUTES: '1' });
  await publishSampleModule(world.registry, world.kcp, { name: 'papa', version: '1.0.0', namespace: KCP_NAMESPACE });
  await setReleaseChannels(world.kcp, KCP_NAMESPACE, 'papa', [{ channel: 'regular', version: '1.0.0' }]);
  cluster = await throwawayRuntime('access-runtime');
  runtime = await KubeClient.from(cluster.kubeConfig());
});

afterAll(async () => {
  await stopWorld(world);
  await cluster?.stop();
});

describe('runtime access', () => {
  it('a kubeconfig that would run a command or read local files (exec, token-file, proxy-url): refused by name, nothing run, nothing read; fixed → Ready', async () => {
    const marker = join(await mkdtemp(join(tmpdir(), 'exec-')), 'ran');
    const tokenFile = join(dirname(marker), 'token');
    await writeFile(tokenFile, 'token-from-a-local-file');
    const variants: [Record<string, unknown>, Record<string, unknown>, RegExp][] = [
      [
        {
          exec: { apiVersion: 'client.authentication.k8s.io/v1', command: '/bin/sh', args: ['-c', `touch ${marker}`] },
        },
        {},
        /is refused: its user runs an exec credential plugin \(command "\/bin\/sh"\), which is refused; allow the command by name with LIFECYCLE_KUBECONFIG_EXEC_COMMANDS$/,
      ],
      [{ 'token-file': tokenFile }, {}, /is refused: its user names a local file \(token-file\)/],
      [{ token: 'x' }, { 'proxy-url': 'http://127.0.0.1:9' }, /is refused: its cluster names a proxy \(proxy-url\)/],
    ];
    await applyKyma(world, REFUSED, { channel: 'regular', modules: [{ name: 'papa' }] });
    for (const [user, cluster, message] of variants) {
      await setSecret(rewrite(cluster, user), REFUSED);
      await touch(REFUSED);
      const failed = await kymaInState(world, REFUSED, 'Error', (k) =>
        message.test(k.status?.lastOperation?.operation ?? ''),
      );
      expect(failed.status?.lastOperation?.operation).toContain(
        `runtime of Kyma ${REFUSED}: kubeconfig Secret ${REFUSED} of Kyma ${REFUSED} is refused: `,
      );
    }
    await world.runner.broker.idle();
    expect(existsSync(marker), 'the exec plugin never ran').toBe(false);
    expect(await manifestsOf(world, REFUSED)).toEqual([]);
    expect(await readFile(world.logFile, 'utf8'), "the token file's content never reached a log").not.toContain(
      'token-from-a-local-file',
    );

    await setSecret(cluster.kubeconfig, REFUSED);
    await touch(REFUSED);
    await kymaInState(world, REFUSED, 'Ready', modulesReady);
    await deleteKyma(world, REFUSED);
    await kymaGone(world, REFUSED);
    await world.kcp.delete({ apiVersion: 'v1', kind: 'Secret', namespace: KCP_NAMESPACE, name: REFUSED });
  });

  it('a kubeconfig Secret that is not a kubeconfig: no Manifest, Kyma Error naming the Secret; fixed → installed and Ready', async () => {
    await setSecret('this is not a kubeconfig');
    await applyKyma(world, KYMA, { channel: 'regular', modules: [{ name: 'papa' }] });
    const failed = await kymaInState(world, KYMA, 'Error');
    expect(failed.status?.lastOperation?.operation).toBe(
      `runtime of Kyma ${KYMA}: kubeconfig Secret ${KYMA} of Kyma ${KYMA} does not hold a usable kubeconfig`,
    );
    // No module was ever seen: the Modules condition must not claim they are Ready.
    expect(failed.status?.conditions?.find((c) => c.type === 'Modules')).toMatchObject({
      status: 'False',
      message: failed.status?.lastOperation?.operation,
    });
    await world.runner.broker.idle();
    expect(await manifestsOf(world, KYMA)).toEqual([]);

    await setSecret(cluster.kubeconfig);
    await touch();
    await kymaInState(world, KYMA, 'Ready', modulesReady);
    expect((await manifestsOf(world, KYMA))[0]?.status?.state).toBe('Ready');
  });

  it('credentials downgraded to a user without permissions: Kyma, module and Manifest Error with 403; admin again → Ready', async () => {
    await setSecret(await cluster.kubeconfigFor('downgraded-user'));
    await touch();
    await world.runner.resync();
    const failed = await kymaInState(world, KYMA, 'Error', (k) => k.status?.modules?.[0]?.state === 'Error');
    expect(failed.status?.lastOperation?.operation).toMatch(new RegExp(`runtime of Kyma ${KYMA} unreachable: .*403`));
    expect(failed.status?.modules?.[0]?.message).toMatch(/403/);
    const manifest = await eventually('Manifest Error naming the runtime', async () => {
      const [m] = await manifestsOf(world, KYMA);
      return m?.status?.state === 'Error' ? m : undefined;
    });
    expect(manifest.status?.lastOperation?.operation).toMatch(
      new RegExp(`^runtime of Kyma ${KYMA} unreachable: .*403`),
    );
    expect(JSON.stringify([failed.status, manifest.status])).not.toMatch(
      /BEGIN|client-key-data|client-certificate-data/,
    );

    await setSecret(cluster.kubeconfig);
    await touch();
    await world.runner.resync();
    await kymaInState(world, KYMA, 'Ready', modulesReady);
    await eventually(
      'Manifest Ready again',
      async () => (await manifestsOf(world, KYMA))[0]?.status?.state === 'Ready',
    );
  });

  it("a kubeconfig trusting another cluster's CA: Kyma and module Error naming the runtime, no key material in status; fixed → Ready", async () => {
    await setSecret(withForeignCa(cluster.kubeconfig, world.runtimeKubeconfigs[0] ?? ''));
    await touch();
    await world.runner.resync();
    const failed = await kymaInState(world, KYMA, 'Error', (k) => k.status?.modules?.[0]?.state === 'Error');
    expect(failed.status?.lastOperation?.operation).toMatch(
      new RegExp(`runtime of Kyma ${KYMA} unreachable: .*certificate`, 'i'),
    );
    expect(JSON.stringify(failed.status)).not.toMatch(/BEGIN|client-key-data|certificate-authority-data/);
    await setSecret(cluster.kubeconfig);
    await touch();
    await world.runner.resync();
    await kymaInState(world, KYMA, 'Ready', modulesReady);
  });

  it('an expired ServiceAccount token (genuine signature): 401 in the status, the token nowhere; the same token unexpired authenticates', async () => {
    const sa = await runtime.get<{ metadata: { name: string; uid: string } }>({
      apiVersion: 'v1',
      kind: 'ServiceAccount',
      namespace: 'default',
      name: 'default',
    });
    const identity = { namespace: 'default', name: 'default', uid: sa?.metadata.uid ?? '' };
    const expired = await serviceAccountToken(cluster, identity, -600);
    const valid = await serviceAccountToken(cluster, identity, 600);
    const asValid = await KubeClient.from(loadKubeConfig(await tokenKubeconfig(cluster, valid)));
    await expect(
      asValid.get({ apiVersion: 'v1', kind: 'Secret', namespace: 'kube-system', name: 'x' }),
      'authenticated, not authorised',
    ).rejects.toMatchObject({ status: 403 });
    await setSecret(await tokenKubeconfig(cluster, expired));
    await touch();
    await world.runner.resync();
    const failed = await kymaInState(world, KYMA, 'Error', (k) => k.status?.modules?.[0]?.state === 'Error');
    expect(failed.status?.lastOperation?.operation).toMatch(new RegExp(`runtime of Kyma ${KYMA} unreachable: .*401`));
    const [manifest] = await manifestsOf(world, KYMA);
    expect(JSON.stringify([failed.status, manifest?.status])).not.toContain(expired.split('.')[2]);
    await setSecret(cluster.kubeconfig);
    await touch();
    await world.runner.resync();
    await kymaInState(world, KYMA, 'Ready', modulesReady);
  });

  it('the runtime disappears: the Kyma and every module go Error naming it; deleting the Secret lets the Kyma go', async () => {
    expect(
      await runtime.get({ apiVersion: API_VERSION, kind: 'Kyma', namespace: 'kyma-system', name: 'default' }),
    ).toBeDefined();
    await cluster.stop();
    await touch();
    const failed = await kymaInState(world, KYMA, 'Error', (k) => k.status?.modules?.[0]?.state === 'Error');
    expect(failed.status?.lastOperation?.operation).toMatch(new RegExp(`runtime of Kyma ${KYMA} unreachable: `));
    expect(
      failed.status?.modules?.every(
        (m) => m.state === 'Error' && m.message?.startsWith(`runtime of Kyma ${KYMA} unreachable`),
      ),
    ).toBe(true);
    await deleteKyma(world, KYMA);
    await world.kcp.delete({ apiVersion: 'v1', kind: 'Secret', namespace: KCP_NAMESPACE, name: KYMA });
    await kymaGone(world, KYMA);
  });
});
