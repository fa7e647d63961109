// Runs the real Helm engine (`helm template`, ADR 22) for one chart render. The helm binary: LIFECYCLE_HELM_BINARY,
// else a `helm` next to the bundled function (the image ships one), else `helm` on PATH.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { templateArgs, type ChartRender } from './helm-charts.ts';

const TIMEOUT_MS = 60_000;
const MAX_OUTPUT_BYTES = 32 * 1024 * 1024;

/** The helm binary to run, and the PATH it is looked up in when it is a bare name. */
export interface HelmBinary {
  file: string;
  searchPath: string;
}

/** The helm binary to run: configured, bundled, or on PATH. */
export function helmBinary(config: { helmBinary: string | undefined; searchPath: string }): HelmBinary {
  const bundled = fileURLToPath(new URL('./helm', import.meta.url));
  return { file: config.helmBinary ?? (existsSync(bundled) ? bundled : 'helm'), searchPath: config.searchPath };
}

/** Renders one chart — a .tgz (bytes) or a chart in a repository — to a YAML stream; throws with Helm's own message. */
export async function helmTemplate(
  binary: HelmBinary,
  render: ChartRender,
  chart: { archive: Uint8Array } | { name: string; repo: string; version?: string },
): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'kyma-helm-'));
  try {
    const chartRef = 'archive' in chart ? { file: join(dir, 'chart.tgz') } : chart;
    if ('archive' in chart) await writeFile(join(dir, 'chart.tgz'), chart.archive);
    const valuesFile = Object.keys(render.values).length ? join(dir, 'values.yaml') : undefined;
    if (valuesFile) await writeFile(valuesFile, stringify(render.values));
    return await run(binary, templateArgs(render, chartRef, valuesFile), dir);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** helm with a home of its own (no user config, repositories or plugins), a time limit and an output limit. */
function run(binary: HelmBinary, args: string[], home: string): Promise<string> {
  const env = {
    PATH: binary.searchPath,
    HOME: home,
    HELM_CACHE_HOME: join(home, 'cache'),
    HELM_CONFIG_HOME: join(home, 'config'),
    HELM_DATA_HOME: join(home, 'data'),
    HELM_PLUGINS: join(home, 'plugins'),
  };
  return new Promise((resolve, reject) => {
    const child = spawn(binary.file, args, { env, stdio: ['ignore', 'pipe', 'pipe'], timeout: TIMEOUT_MS });
    const out: Buffer[] = [];
    let size = 0;
    let err = '';
    child.stdout.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_OUTPUT_BYTES) child.kill('SIGKILL');
      else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      if (err.length < 4096) err += chunk.toString();
    });
    child.on('error', (error: NodeJS.ErrnoException) =>
      reject(
        new Error(
          error.code === 'ENOENT'
            ? `the helm binary ${binary.file} was not found (LIFECYCLE_HELM_BINARY)`
            : `helm could not run: ${error.message}`,
        ),
      ),
    );
    child.on('close', (code, signal) => {
      if (size > MAX_OUTPUT_BYTES)
        return reject(new Error(`helm template rendered more than ${MAX_OUTPUT_BYTES} bytes`));
      if (signal) return reject(new Error(`helm template did not finish within ${TIMEOUT_MS / 1000} s`));
      if (code !== 0) return reject(new Error(`helm template failed: ${helmMessage(err)}`));
      resolve(Buffer.concat(out).toString('utf8'));
    });
  });
}

/** Helm's error, one line, without its "Error: " prefix. */
const helmMessage = (stderr: string) =>
  stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('WARNING'))
    .join('; ')
    .replace(/^Error: /, '')
    .slice(0, 500) || 'no message';
