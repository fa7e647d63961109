// A real Prometheus for the monitoring tests: scrapes the local runner's fleet component and function hosts every
// second and evaluates a rule file every second; asked through its HTTP API.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { freePort } from '../../local/controlplane/ports.ts';
import { startProcess, waitUntil } from '../../local/controlplane/process.ts';

export interface Prometheus {
  readonly url: string;
  query<T = { metric: Record<string, string>; value: [number, string] }>(expr: string): Promise<T[]>;
  firing(alert: string): Promise<Record<string, string>[]>;
  stop(): Promise<void>;
}

/** Starts `binary` scraping `targets` (job → URLs) with `rules` (a rule file's content), as a process of the run
 * directory `runDir` (reaped with it); resolves once it is ready. */
export async function startPrometheus(
  binary: string,
  runDir: string,
  targets: Record<string, string[]>,
  rules: object,
): Promise<Prometheus> {
  const dir = await mkdtemp(join(tmpdir(), 'prometheus-'));
  await writeFile(join(dir, 'rules.yaml'), stringify(rules));
  const scrape_configs = Object.entries(targets).map(([job, urls]) => ({
    job_name: job,
    static_configs: [{ targets: urls.map((u) => new URL(u).host) }],
  }));
  const config = {
    global: { scrape_interval: '1s', evaluation_interval: '1s' },
    rule_files: ['rules.yaml'],
    scrape_configs,
  };
  await writeFile(join(dir, 'prometheus.yml'), stringify(config));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const proc = await startProcess({
    name: 'prometheus',
    bin: binary,
    args: [
      `--config.file=${join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    runDir,
  });
  const api = async <T>(path: string): Promise<T> => {
    const answer = (await (await fetch(`${url}${path}`)).json()) as { status: string; data: T; error?: string };
    if (answer.status !== 'success') throw new Error(`Prometheus ${path}: ${answer.error ?? answer.status}`);
    return answer.data;
  };
  await waitUntil('Prometheus ready', async () => (await fetch(`${url}/-/ready`)).ok, proc, 30_000);
  return {
    url,
    query: async <T>(expr: string) =>
      (await api<{ result: T[] }>(`/api/v1/query?query=${encodeURIComponent(expr)}`)).result,
    firing: async (alert: string) =>
      (await api<{ alerts: { labels: Record<string, string>; state: string }[] }>('/api/v1/alerts')).alerts
        .filter((a) => a.labels.alertname === alert && a.state === 'firing')
        .map((a) => a.labels),
    stop: () => proc.stop(),
  };
}
