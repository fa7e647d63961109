import { describe, expect, it } from 'vitest';
import type { Kyma } from '../../shared/core/kyma.ts';
import type { Manifest } from '../../shared/core/manifest.ts';
import { explainKyma, explanationText, type KubeEvent } from './explain.ts';

const kyma: Kyma = {
  apiVersion: 'operator.kyma-project.io/v1beta2',
  kind: 'Kyma',
  metadata: { name: 'k1', namespace: 'kcp-system' },
  spec: { channel: 'regular' },
  status: {
    state: 'Error',
    lastOperation: { operation: 'module papa: Error' },
    specSource: { from: 'runtime', channel: 'regular' },
    conditions: [{ type: 'Modules', status: 'False', reason: 'Error', message: 'papa is Error' }],
    modules: [
      {
        name: 'papa',
        channel: 'regular',
        version: '1.0.0',
        state: 'Error',
        message: 'installation failed',
        manifest: {
          apiVersion: 'operator.kyma-project.io/v1beta2',
          kind: 'Manifest',
          metadata: { name: 'k1-papa-1', namespace: 'kcp-system' },
        },
        resolution: { state: 'Resolved', version: '1.0.0' },
      },
      { name: 'quebec', state: 'Ready', resolution: { state: 'Resolved', version: '2.0.0' } },
    ],
  },
};
const manifest: Manifest = {
  apiVersion: 'operator.kyma-project.io/v1beta2',
  kind: 'Manifest',
  metadata: {
    name: 'k1-papa-1',
    namespace: 'kcp-system',
    labels: { 'operator.kyma-project.io/kyma-name': 'k1', 'operator.kyma-project.io/module-name': 'papa' },
  },
  spec: {
    install: { name: 'raw-manifest', source: { repo: 'r', name: 'n', ref: 'sha256:1', type: 'oci-ref' } },
    version: '1.0.0',
  },
  status: {
    state: 'Error',
    lastOperation: { operation: 'Deployment papa-system/papa: ImagePullBackOff' },
    conditions: [
      { type: 'Installation', status: 'False', reason: 'Ready', message: 'Deployment papa-system/papa not available' },
    ],
    synced: [{ group: 'apps', version: 'v1', kind: 'Deployment', name: 'papa', namespace: 'papa-system' }],
  },
};
const events: KubeEvent[] = [
  {
    type: 'Warning',
    reason: 'ModuleError',
    message: 'papa: installation failed',
    lastTimestamp: '2026-11-23T07:00:02Z',
    involvedObject: { kind: 'Kyma', name: 'k1' },
  },
  {
    type: 'Normal',
    reason: 'StateChanged',
    message: 'Processing → Error',
    lastTimestamp: '2026-11-23T07:00:01Z',
    count: 3,
    involvedObject: { kind: 'Manifest', name: 'k1-papa-1' },
  },
  {
    type: 'Normal',
    reason: 'StateChanged',
    message: 'elsewhere',
    lastTimestamp: '2026-11-23T07:00:03Z',
    involvedObject: { kind: 'Kyma', name: 'k2' },
  },
];

describe('explainKyma', () => {
  it('the whole Kyma: state, spec source, conditions, each module down to its runtime objects; its events newest first', () => {
    const e = explainKyma(kyma, [manifest], events, undefined, '4bf92f3577b34da6a3ce929d0e0e4736');
    expect(explanationText(e).split('\n')).toEqual([
      'Kyma kcp-system/k1: Error — module papa: Error',
      '  spec from the runtime Kyma, channel regular',
      '  Modules False — papa is Error',
      '  module papa (channel regular): Error — installation failed',
      '    resolution: Resolved 1.0.0',
      '    Manifest kcp-system/k1-papa-1 1.0.0: Error — Deployment papa-system/papa: ImagePullBackOff',
      '      Installation False — Deployment papa-system/papa not available',
      '      runtime objects (1): Deployment papa-system/papa',
      '  module quebec: Ready',
      '    resolution: Resolved 2.0.0',
      '    Manifest: none',
      '',
      'last events:',
      '  2026-11-23T07:00:02Z Warning ModuleError Kyma/k1: papa: installation failed',
      '  2026-11-23T07:00:01Z Normal StateChanged Manifest/k1-papa-1: Processing → Error (×3)',
      '',
      'last trace: 4bf92f3577b34da6a3ce929d0e0e4736',
    ]);
    expect(explanationText(e, 'https://jaeger.example/trace/{traceId}').split('\n').at(-1)).toBe(
      'last trace: 4bf92f3577b34da6a3ce929d0e0e4736 https://jaeger.example/trace/4bf92f3577b34da6a3ce929d0e0e4736',
    );
  });

  it("one module: only its chain (found by label when the status has no Manifest reference), its Manifest's events", () => {
    const unreferenced = { ...kyma, status: { ...kyma.status, modules: [{ name: 'papa', state: 'Error' as const }] } };
    const e = explainKyma(unreferenced, [manifest], events, 'papa');
    expect(e.chain.map((l) => l.text)).toEqual([
      'module papa: Error',
      'Manifest kcp-system/k1-papa-1 1.0.0: Error — Deployment papa-system/papa: ImagePullBackOff',
      'Installation False — Deployment papa-system/papa not available',
      'runtime objects (1): Deployment papa-system/papa',
    ]);
    expect(e.events).toHaveLength(2);
    expect(e.traceId).toBeUndefined();
  });

  it('a Kyma without status says that nothing has handled it yet', () => {
    const fresh: Kyma = { apiVersion: kyma.apiVersion, kind: kyma.kind, metadata: kyma.metadata };
    expect(explanationText(explainKyma(fresh, [], []))).toBe(
      'Kyma kcp-system/k1: Unknown\n  no status yet: no function has handled this Kyma (is the lifecycle manager running and its ApiServerSource delivering?)',
    );
  });

  it('a module the Kyma does not have says so; a deleting Manifest lists the finalizers holding it', () => {
    expect(explainKyma(kyma, [], [], 'zulu').chain.map((l) => l.text)).toEqual([
      "module zulu: not in the Kyma's status (not asked for, or not resolved yet)",
    ]);
    const stuck = {
      ...manifest,
      metadata: {
        ...manifest.metadata,
        deletionTimestamp: '2026-11-23T07:00:00Z',
        finalizers: ['declarative.kyma-project.io/finalizer'],
      },
    };
    expect(explainKyma(kyma, [stuck], [], 'papa').chain.map((l) => l.text)).toContain(
      'finalizers left: declarative.kyma-project.io/finalizer',
    );
  });
});
