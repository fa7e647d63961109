import { CoreV1Api } from '@kubernetes/client-node';
import { startControlPlane } from './shared/controlplane/index.ts';
import { ResourceWatch } from './shared/eventing/resource-watch.ts';
import { LocalApiServerSource } from './shared/eventing/index.ts';

const plane = await startControlPlane({ runtimes: 0, registry: false });
try {
  const kc = plane.kcp.kubeConfig();
  const core = kc.makeApiClient(CoreV1Api);
  await core.createNamespace({ body: { metadata: { name: 'w' } } });
  const log = { info: console.log, warn: (o: object, m: string) => console.log('WARN', m, o), error: (o: object, m: string) => console.log('ERR', m, o) };
  let opened = 0;
  const original = Reflect.get(ResourceWatch.prototype, 'watchOnce') as (...a: unknown[]) => Promise<string>;
  Reflect.set(ResourceWatch.prototype, 'watchOnce', function (this: ResourceWatch, ...a: unknown[]) { opened++; console.log('watch opened', new Date().toISOString()); return original.apply(this, a); });
  const got: string[] = [];
  const src = new LocalApiServerSource({ kubeConfig: kc, resources: [{ apiVersion: 'v1', kind: 'ConfigMap', namespace: 'w' }], sink: async (e) => void got.push(`${e.type} ${String(e.name)}`), log });
  await src.start(); await src.ready();
  await new Promise((r) => setTimeout(r, 40_000));
  await core.createNamespacedConfigMap({ namespace: 'w', body: { metadata: { name: 'late' } } });
  await new Promise((r) => setTimeout(r, 1000));
  console.log('watches opened:', opened, 'events:', got);
  const t0 = Date.now(); await src.stop(); console.log('stop took', Date.now() - t0, 'ms');
} finally {
  await plane.stop();
  console.log('plane stopped');
}
