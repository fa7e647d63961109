// A real Jaeger (v2, all-in-one, in-memory storage) for the trace test: OTLP/HTTP in, its query API out, on free ports.
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { freePort } from '../../local/controlplane/ports.ts';
import { startProcess, waitUntil } from '../../local/controlplane/process.ts';

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

/** Starts `binary` as a process of the run directory `runDir` (reaped with it); resolves once its query API answers. */
export async function startJaeger(binary: string, runDir: string): Promise<Jaeger> {
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
  const proc = await startProcess({
    name: 'jaeger',
    bin: binary,
    args: ['--config', join(dir, 'config.yaml')],
    runDir,
  });
  const api = `http://127.0.0.1:${query}`;
  await waitUntil('Jaeger ready', async () => (await fetch(`${api}/api/services`)).ok, proc, 60_000);
  return {
    otlp: `http://127.0.0.1:${otlp}`,
    async trace(traceId) {
      const answer = await fetch(`${api}/api/traces/${traceId}`);
      if (answer.status === 404) return undefined;
      const body = (await answer.json()) as { data?: JaegerTrace[] };
      return body.data?.[0];
    },
    stop: () => proc.stop(),
  };
}
