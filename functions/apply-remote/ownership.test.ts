import type { CloudEvent } from 'cloudevents';
import { describe, expect, it } from 'vitest';
import { aManifest } from '../../test/builders.ts';
import type { Manifest, SyncedResource } from '../../shared/core/manifest.ts';
import { API_VERSION, LABEL } from '../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { APISERVER_DELETE, RESYNC_DUE } from '../../shared/host/events.ts';
import { handOver, heirsOf } from './ownership.ts';

const role = (name: string): SyncedResource => ({
  group: 'rbac.authorization.k8s.io',
  version: 'v1',
  kind: 'ClusterRole',
  name,
  namespace: '',
});
const manifest = (name: string, synced: SyncedResource[], kyma = 'k1', deleting = false): Manifest =>
  aManifest({ name, kyma, deleting, status: { synced } });

describe('a Manifest that held objects another module ships is gone (ADR 33)', () => {
  const gone = manifest('holder', [role('shared'), role('own')]);
  const siblings = [
    manifest('heir', [role('shared')]),
    manifest('stranger', [role('other')]),
    manifest('elsewhere', [role('shared')], 'k2'),
    manifest('leaving', [role('shared')], 'k1', true),
    gone,
  ];

  it('its heirs: the other installed modules of its Kyma that ship one of its objects', () => {
    expect(heirsOf(gone, siblings)).toEqual(['heir']);
    expect(heirsOf(manifest('holder', []), siblings)).toEqual([]);
  });

  it('each heir gets a resync.due at once, no older than the deletion', async () => {
    const sent: CloudEvent<unknown>[] = [];
    const manifests = {
      list: () => Promise.resolve({ items: siblings.filter((m) => m.metadata.name !== 'holder') }),
    } as unknown as KubeClient;
    const event = {
      id: 'e1',
      type: APISERVER_DELETE,
      source: 's',
      specversion: '1.0',
      kind: 'Manifest',
      apiversion: API_VERSION,
      namespace: 'kcp-system',
      name: 'holder',
      data: { ...gone, metadata: { ...gone.metadata, resourceVersion: '42' } },
    };
    expect(
      await handOver(
        manifests,
        (e) => {
          sent.push(e);
          return Promise.resolve();
        },
        event,
      ),
    ).toBe(1);
    expect(
      sent.map((e) => ({
        type: e.type,
        kind: e.kind,
        name: e.name,
        seenversion: e.seenversion,
        causationid: e.causationid,
      })),
    ).toEqual([{ type: RESYNC_DUE, kind: 'Manifest', name: 'heir', seenversion: '42', causationid: 'e1' }]);
    const hostile = {
      ...event,
      data: { ...event.data, metadata: { ...event.data.metadata, labels: { [LABEL.kymaName]: 'k1,x!=y' } } },
    };
    expect(
      await handOver(
        manifests,
        (e) => {
          sent.push(e);
          return Promise.resolve();
        },
        hostile,
      ),
    ).toBe(0);
  });
});
