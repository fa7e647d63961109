// The KCP Kyma's status mirrored onto the runtime Kyma by several instances of aggregate-status (ADR 77): an instance
// writes unread only a status its own call wrote; a status another instance wrote (and so mirrored) is read first and
// not written again, and a runtime Kyma that lost it is still repaired. A runtime Kyma that can hold no status but ours
// (its catalog never pushed, ADR 96) is written unread. Real runtime API server, request tally.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mirrorToRuntime } from '../functions/aggregate-status/mirror.ts';
import type { Kyma, KymaStatus } from '../shared/core/kyma.ts';
import { remoteKymaRef } from '../shared/core/runtime-scope.ts';
import { API_VERSION } from '../shared/core/vocabulary.ts';
import { KubeClient } from '../shared/kube/client.ts';
import { countRequests, requestTally } from '../shared/kube/request-tally.ts';
import { SyncMemo } from '../shared/kube/sync-memo.ts';
import { clusters } from './clusters.ts';
import { installRuntimeKymaCrd } from './faults/function-host-helpers.ts';

const id = Date.now().toString(36);
const scope = { namespace: `mirror-instances-${id}`, shared: true };
const KEY = `kcp-system/mirror-instances-${id}`;
const processing: KymaStatus = {
  state: 'Processing',
  lastOperation: { operation: 'installing', lastUpdateTime: '2026-12-04T08:00:00Z' },
};
const ready: KymaStatus = {
  state: 'Ready',
  lastOperation: { operation: 'kyma is ready', lastUpdateTime: '2026-12-04T08:01:00Z' },
};
const [a, b] = [new SyncMemo(60_000), new SyncMemo(60_000)];
let client: KubeClient;

/** What was sent to the runtime Kyma since counting restarted, `verb resource` → count. */
function sent(): Record<string, number> {
  const rows = requestTally().filter((r) => r.server === client.server && r.resource.startsWith('kymas.'));
  return Object.fromEntries(rows.map((r) => [`${r.verb} ${r.resource}`, r.count]));
}

const mirror = (memo: SyncMemo, status: KymaStatus, statusWritten: boolean) =>
  mirrorToRuntime(client, scope, status, memo, KEY, { force: false, statusWritten });
const runtimeState = async () => (await client.get<Kyma>(remoteKymaRef(scope)))?.status?.state;

/** The runtime namespace of `at` and a runtime Kyma there without status, as resolve-template creates it. */
async function createRuntimeKyma(at: { namespace: string }): Promise<void> {
  await client.apply({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: at.namespace } }, 'test');
  const { namespace, name } = remoteKymaRef({ ...at, shared: true });
  await client.create({
    apiVersion: API_VERSION,
    kind: 'Kyma',
    metadata: { name, namespace },
    spec: { channel: 'regular' },
  });
}

beforeAll(async () => {
  const [runtime] = clusters().runtimes;
  if (!runtime) throw new Error('no runtime');
  await installRuntimeKymaCrd(0);
  client = await KubeClient.from(runtime);
  await createRuntimeKyma(scope);
});
beforeEach(() => countRequests(true));
afterAll(async () => {
  countRequests(false);
  for (const name of [scope.namespace, fresh.namespace])
    await client.delete({ apiVersion: 'v1', kind: 'Namespace', name }).catch(() => false);
});

describe('the status mirror with two instances (ADR 77)', () => {
  it('instance A mirrors the status its call wrote: a first read of the runtime Kyma, then the write', async () => {
    await mirror(a, processing, true);
    expect(sent()).toEqual({
      'get kymas.operator.kyma-project.io': 1,
      'patch kymas.operator.kyma-project.io/status': 1,
    });
    expect(await runtimeState()).toBe('Processing');
  });

  it("instance B, on the Kyma event of A's write, reads and finds it mirrored: no write", async () => {
    await mirror(b, processing, false);
    expect(sent()).toEqual({ 'get kymas.operator.kyma-project.io': 1 });
  });

  it('A writes the next status of its own call unread: one write', async () => {
    await mirror(a, ready, true);
    expect(sent()).toEqual({ 'patch kymas.operator.kyma-project.io/status': 1 });
    expect(await runtimeState()).toBe('Ready');
  });

  it("B, remembering the older status, reads before writing A's status again: a read, no write", async () => {
    await mirror(b, ready, false);
    expect(sent()).toEqual({ 'get kymas.operator.kyma-project.io': 1 });
  });

  it('a runtime Kyma that lost the status is repaired by the next instance it reaches', async () => {
    await client.mergePatch(remoteKymaRef(scope), { status: { state: 'Error' } }, 'status');
    countRequests(true);
    await mirror(new SyncMemo(60_000), ready, false);
    expect(sent()).toEqual({
      'get kymas.operator.kyma-project.io': 1,
      'patch kymas.operator.kyma-project.io/status': 1,
    });
    expect(await runtimeState()).toBe('Ready');
  });
});

const fresh = { namespace: `mirror-fresh-${id}`, shared: true };
describe('a runtime Kyma with no status but ours (ADR 96)', () => {
  const mirrorFresh = (memo: SyncMemo) =>
    mirrorToRuntime(client, fresh, processing, memo, `${KEY}-fresh`, {
      force: 'live',
      statusWritten: false,
      onlyOurs: true,
    });

  it('is written unread, even by a full check of an instance that never mirrored it', async () => {
    await createRuntimeKyma(fresh);
    countRequests(true);
    const written = await mirrorFresh(new SyncMemo(60_000));
    expect(sent()).toEqual({ 'patch kymas.operator.kyma-project.io/status': 1 });
    const stored = await client.get<Kyma>(remoteKymaRef(fresh));
    expect([stored?.status?.state, stored?.metadata.resourceVersion]).toEqual(['Processing', written]);
  });

  it('gone: the write meets 404 and nothing is remembered', async () => {
    await client.delete(remoteKymaRef(fresh));
    const memo = new SyncMemo(60_000);
    countRequests(true);
    expect(await mirrorFresh(memo)).toBeUndefined();
    expect(sent()).toEqual({ 'patch kymas.operator.kyma-project.io/status': 1 });
    expect(memo.known(client, `${KEY}-fresh#status`)).toBe(false);
  });
});
