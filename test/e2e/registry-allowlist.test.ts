// The registry allowlist (issue 8): a module whose descriptor names a registry host that is not allowed is refused
// with the host in the Kyma's module status, no Manifest is written, and the named host never hears from us (a real
// HTTP server counting requests stands in for it). Allowed by LIFECYCLE_OCI_REGISTRY_ALLOWLIST, the same module
// installs — from the configured registry, as upstream does for the raw manifest. A descriptor whose repository context
// maps component names by sha256-digest has its layers read, as upstream, from component-descriptors/<sha256 hex>.
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { componentRepository } from '../../shared/oci/reference.ts';
import { publishSampleModule, setReleaseChannels } from '../../tools/module/publish.ts';
import { sampleComponent } from '../../tools/module/sample.ts';
import {
  applyKyma,
  connectRuntime,
  deleteKyma,
  kymaGone,
  kymaInState,
  manifestsOf,
  startWorld,
  stopWorld,
  type World,
} from './world.ts';

const MODULE = 'uniform';
let decoy: Server;
let decoyHost: string;
const decoyRequests: string[] = [];
let world: World | undefined;

beforeAll(async () => {
  decoy = createServer((req, res) => {
    decoyRequests.push(`${req.method} ${req.url}`);
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => decoy.listen(0, '127.0.0.1', resolve));
  decoyHost = `127.0.0.1:${(decoy.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await stopWorld(world);
  await new Promise((resolve) => decoy.close(resolve));
});

describe('registry allowlist', () => {
  it('refuses a descriptor naming a host outside the allowlist: module Error naming the host, no Manifest, nothing fetched', async () => {
    world = await startWorld();
    await publishSampleModule(world.registry, world.kcp, {
      name: MODULE,
      version: '1.0.0',
      namespace: KCP_NAMESPACE,
      registryBaseUrl: `${decoyHost}/modules`,
    });
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

  it('installs a module published with componentNameMapping sha256-digest from component-descriptors/<sha256 hex of its name>, as upstream', async () => {
    if (!world) throw new Error('no world');
    const registry = world.registry;
    await publishSampleModule(registry, world.kcp, {
      name: 'xray',
      version: '1.0.0',
      namespace: KCP_NAMESPACE,
      componentNameMapping: 'sha256-digest',
    });
    await setReleaseChannels(world.kcp, KCP_NAMESPACE, 'xray', [{ channel: 'regular', version: '1.0.0' }]);
    const component = sampleComponent('xray');
    const hex = createHash('sha256').update(component).digest('hex');
    // The local blobs of the component version (layers that are OCM resources), pushed with it to component-descriptors/<name>.
    const { manifest: image } = await registry.getManifest(componentRepository(component), '1.0.0');
    const localBlobs = (image.layers ?? []).filter((l) => l.annotations?.['software.ocm.artifact']);
    const rawDigest = localBlobs.find((l) =>
      l.annotations?.['software.ocm.artifact']?.includes('"name":"raw-manifest"'),
    )?.digest;
    if (!rawDigest) throw new Error('the pushed component has no raw-manifest layer');
    await connectRuntime(world, 'mapping', 0);
    await applyKyma(world, 'mapping', { channel: 'regular', modules: [{ name: 'xray' }] });
    // Not there yet: the module fails pulling the raw manifest from component-descriptors/<hex>, not from the component's repository.
    const failed = await kymaInState(world, 'mapping', 'Error', (k) => k.status?.modules?.[0]?.state === 'Error');
    expect(failed.status?.modules?.[0]?.message).toContain(
      `${registry.host}/component-descriptors/${hex}@${rawDigest}`,
    );
    const [manifest] = await manifestsOf(world, 'mapping');
    expect(manifest?.spec?.install?.source).toEqual({
      repo: registry.host,
      name: hex,
      ref: rawDigest,
      type: 'oci-dir',
    });
    for (const layer of localBlobs)
      await registry.pushBlob(
        `component-descriptors/${hex}`,
        await registry.getBlob(componentRepository(component), layer.digest),
      );
    await world.runner.resync();
    await kymaInState(world, 'mapping', 'Ready', (k) => k.status?.modules?.[0]?.state === 'Ready');
    expect((await manifestsOf(world, 'mapping'))[0]?.spec?.install?.source.name).toBe(hex);
    await deleteKyma(world, 'mapping');
    await kymaGone(world, 'mapping');
  });
});
