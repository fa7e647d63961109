// Secret hygiene over the whole integration run (it runs last, test/sequencer.ts): the runtime kubeconfig token every
// world's kubeconfig Secrets carry and the registry passwords appear in no log line (every level, every component),
// no object status the ApiServerSource delivered, no Kubernetes Event on the KCP or the runtimes — and so in no error
// message or HTTP answer either, which the functions log and the broker records on every failed delivery.
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, inject, it } from 'vitest';
import { loadKubeConfig } from '../local/controlplane/index.ts';
import { KubeClient } from '../shared/kube/client.ts';
import { listAll } from '../shared/kube/list.ts';
import { knownSecrets } from './secrets.ts';

interface Finding {
  secret: string;
  where: string;
}

/** Every occurrence of a known secret in the given texts, by secret name and place (never the secret itself). */
function scan(texts: Map<string, string>, secrets: Record<string, string>): Finding[] {
  return [...texts].flatMap(([where, text]) =>
    Object.entries(secrets)
      .filter(([, value]) => text.includes(value))
      .map(([secret]) => ({ secret, where })),
  );
}

async function filesOf(dir: string): Promise<Map<string, string>> {
  const names = await readdir(dir).catch(() => []);
  return new Map(
    await Promise.all(names.map(async (name) => [name, await readFile(join(dir, name), 'utf8')] as const)),
  );
}

async function kubernetesEvents(kubeconfig: string, cluster: string): Promise<Map<string, string>> {
  const client = await KubeClient.from(loadKubeConfig(kubeconfig));
  const events = await listAll(client, 'v1', 'Event');
  return new Map([[`Events of ${cluster} (${events.length})`, JSON.stringify(events)]]);
}

describe('secret hygiene', () => {
  it('the scan finds a planted secret in a file, so a clean result means something', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'hygiene-canary-'));
    await writeFile(
      join(dir, 'canary.jsonl'),
      `{"msg":"GET failed","header":"Bearer ${inject('controlPlane').runtimeToken}"}\n`,
    );
    expect(scan(await filesOf(dir), knownSecrets())).toEqual([
      { secret: 'runtime kubeconfig token', where: 'canary.jsonl' },
    ]);
    await rm(dir, { recursive: true, force: true });
  });

  it('no known secret in any log line, object status or Kubernetes Event of the run', async () => {
    const cp = inject('controlPlane');
    const captured = await filesOf(cp.hygieneDir);
    const lines = (kind: string) =>
      [...captured]
        .filter(([name]) => name.startsWith(kind))
        .reduce((n, [, text]) => n + text.split('\n').length - 1, 0);
    expect(lines('log'), 'log lines captured: run the whole integration project, this file comes last').toBeGreaterThan(
      1000,
    );
    expect(lines('status'), 'object statuses captured').toBeGreaterThan(100);
    const events = new Map([
      ...(await kubernetesEvents(cp.kcp, 'KCP')),
      ...(await Promise.all(cp.runtimes.map((r, i) => kubernetesEvents(r, `runtime-${i + 1}`)))).flatMap((m) => [...m]),
    ]);
    expect(scan(new Map([...captured, ...events]), knownSecrets())).toEqual([]);
  });
});
