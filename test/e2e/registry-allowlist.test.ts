// The registry allowlist (issue 8): a module whose descriptor names a registry host that is not allowed is refused
// with the host in the Kyma's module status, no Manifest is written, and the named host never hears from us (a real
// HTTP server counting requests stands in for it). Allowed by LIFECYCLE_OCI_REGISTRY_ALLOWLIST, the same module
// installs — from the configured registry, as upstream does for the raw manifest. A descriptor whose repository context
// maps component names other than by urlPath is refused naming the mapping.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { publishSampleModule, setReleaseChannels } from '../../tools/module/publish.ts';
import { applyKyma, connectRuntime, deleteKyma, deleteLeftoverKymas, kymaGone, kymaInState, manifestsOf, startWorld, type World } from './world.ts';

const MODULE = 'uniform';
let decoy: Server;
let decoyHost: string;
const decoyRequests: string[] = [];
let world: World | undefined;

beforeAll(async () => {
  decoy = createServer((req, res) => { decoyRequests.push(`${req.method} ${req.url}`); res.writeHead(404).end(); });
  await new Promise<void>((resolve) => decoy.listen(0, '127.0.0.1', resolve));
  decoyHost = `127.0.0.1:${(decoy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  if (world) await deleteLeftoverKymas(world);
  await world?.runner.stop();
  await new Promise((resolve) => decoy.close(resolve));
});

describe('registry allowlist', () => {
  it('refuses a descriptor naming a host outside the allowlist: module Error naming the host, no Manifest, nothing fetched', async () => {
    world = await startWorld();
    await publishSampleModule(world.registry, world.kcp, { name: MODULE, version: '1.0.0', namespace: KCP_NAMESPACE, registryBaseUrl: `${decoyHost}/modules` });
    await setReleaseChannels(world.kcp, KCP_NAMESPACE, MODULE, [{ channel: 'regular', version: '1.0.0' }]);
    await connectRuntime(world, 'allow-a', 0);
    await applyKyma(world, 'allow-a', { channel: 'regular', modules: [{ name: MODULE }] });
    const kyma = await kymaInState(world, 'allow-a', 'Error', (k) => k.status?.modules?.[0]?.state === 'Error');
    const message = JSON.stringify(kyma.status?.modules?.[0]);
    expect(message).toContain(`names registry host ${decoyHost}, which is not allowed`);
    expect(message).toContain('LIFECYCLE_OCI_REGISTRY_ALLOWLIST');
    expect(await manifestsOf(world, 'allow-a')).toEqual([]);
    expect(decoyRequests).toEqual([]);
    await deleteKyma(world, 'allow-a');
    await kymaGone(world, 'allow-a');
    await world.runner.stop();
    world = undefined;
  });

  it('installs the same module once its host is allowed, still pulling from the configured registry only', async () => {
    world = await startWorld({ LIFECYCLE_OCI_REGISTRY_ALLOWLIST: `registry.example.net, ${decoyHost}` });
    await connectRuntime(world, 'allow-b', 1);
    await applyKyma(world, 'allow-b', { channel: 'regular', modules: [{ name: MODULE }] });
    await kymaInState(world, 'allow-b', 'Ready', (k) => k.status?.modules?.[0]?.state === 'Ready');
    const [manifest] = await manifestsOf(world, 'allow-b');
    expect(manifest?.spec?.install?.source?.repo).not.toBe(decoyHost);
    expect(decoyRequests).toEqual([]);
    await deleteKyma(world, 'allow-b');
    await kymaGone(world, 'allow-b');
  });

  it('refuses a descriptor with componentNameMapping sha256-digest, naming the mapping (not a 404 for a repository it never named)', async () => {
    if (!world) throw new Error('no world');
    await publishSampleModule(world.registry, world.kcp, { name: 'xray', version: '1.0.0', namespace: KCP_NAMESPACE, componentNameMapping: 'sha256-digest' });
    await setReleaseChannels(world.kcp, KCP_NAMESPACE, 'xray', [{ channel: 'regular', version: '1.0.0' }]);
    await connectRuntime(world, 'mapping', 0);
    await applyKyma(world, 'mapping', { channel: 'regular', modules: [{ name: 'xray' }] });
    const kyma = await kymaInState(world, 'mapping', 'Error', (k) => k.status?.modules?.[0]?.state === 'Error');
    expect(kyma.status?.modules?.[0]?.message).toContain('repository context componentNameMapping "sha256-digest" is not supported (only urlPath');
    expect(await manifestsOf(world, 'mapping')).toEqual([]);
    await deleteKyma(world, 'mapping');
    await kymaGone(world, 'mapping');
  });
});
