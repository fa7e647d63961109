// A real Jaeger (v2, all-in-one, in-memory storage) for the trace test: OTLP/HTTP in, its query API out, on free ports.
import { spawn } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { freePort } from '../../local/controlplane/ports.ts';

export interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  references: { refType: string; spanID: string }[];
  tags: { key: string; value: unknown }[];
  processID: string;
}
export interface JaegerTrace {
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string }>;
}
export interface Jaeger {
  /** OTEL_EXPORTER_OTLP_ENDPOINT for the functions. */
  readonly otlp: string;
  trace(traceId: string): Promise<JaegerTrace | undefined>;
  stop(): Promise<void>;
}

export async function startJaeger(binary: string): Promise<Jaeger> {
  const [otlp, query, grpc] = [await freePort(), await freePort(), await freePort()];
  const config = {
    service: {
      extensions: ['jaeger_storage', 'jaeger_query'],
      pipelines: { traces: { receivers: ['otlp'], processors: ['batch'], exporters: ['jaeger_storage_exporter'] } },
      telemetry: { metrics: { level: 'none' }, logs: { level: 'warn' } },
    },
    extensions: {
      jaeger_storage: { backends: { memory_store: { memory: { max_traces: 10_000 } } } },
      jaeger_query: {
        storage: { traces: 'memory_store' },
        http: { endpoint: `127.0.0.1:${query}` },
        grpc: { endpoint: `127.0.0.1:${grpc}` },
      },
    },
    receivers: { otlp: { protocols: { http: { endpoint: `127.0.0.1:${otlp}` } } } },
    processors: { batch: { timeout: '200ms' } },
    exporters: { jaeger_storage_exporter: { trace_storage: 'memory_store' } },
  };
  const dir = await mkdtemp(join(tmpdir(), 'jaeger-'));
  await writeFile(join(dir, 'config.yaml'), stringify(config));
  const child = spawn(binary, ['--config', join(dir, 'config.yaml')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let log = '';
  child.stderr?.on('data', (chunk: Buffer) => (log = (log + chunk.toString()).slice(-4000)));
  const api = `http://127.0.0.1:${query}`;
  for (let i = 0; ; i++) {
    if ((await fetch(`${api}/api/services`).catch(() => undefined))?.ok) break;
    if (i > 240 || child.exitCode !== null) throw new Error(`Jaeger did not become ready:\n${log}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    otlp: `http://127.0.0.1:${otlp}`,
    async trace(traceId) {
      const answer = await fetch(`${api}/api/traces/${traceId}`);
      if (answer.status === 404) return undefined;
      const body = (await answer.json()) as { data?: JaegerTrace[] };
      return body.data?.[0];
    },
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
