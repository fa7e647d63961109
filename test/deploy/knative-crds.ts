// Knative's own published CRDs (with their OpenAPI schemas), taken from the Knative Go modules through the Go module
// proxy — the same source the test binaries come from — so manifests/ is checked against what a real Knative
// installation serves. Versions: the oldest Knative we support (1.15) and the newest we know of (1.23).
import { execFile } from 'node:child_process';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { parseAllDocuments } from 'yaml';

const run = promisify(execFile);

/** Knative release → Go module versions of eventing and serving (module v0.N+27 is release 1.N). */
export const KNATIVE_RELEASES = [
  { release: '1.15', eventing: 'v0.42.0', serving: 'v0.42.0' },
  { release: '1.23', eventing: 'v0.50.0', serving: 'v0.50.0' },
] as const;

export type KnativeRelease = (typeof KNATIVE_RELEASES)[number];

interface CrdDocument {
  kind?: string;
  metadata?: { name?: string };
}

/** The CustomResourceDefinitions of Knative Eventing (core) and Serving (core) of one release. */
export async function knativeCrds(release: KnativeRelease): Promise<CrdDocument[]> {
  const eventing = await moduleDir('knative.dev/eventing', release.eventing);
  const serving = await moduleDir('knative.dev/serving', release.serving);
  return [
    ...(await crdsIn(join(eventing, 'config/core/resources'))),
    ...(await crdsIn(join(serving, 'config/core/300-resources'))),
  ];
}

/** The directory of a published Go module's source (downloaded into the Go module cache once). */
export async function moduleDir(path: string, version: string): Promise<string> {
  try {
    const { stdout } = await run('go', ['mod', 'download', '-json', `${path}@${version}`], {
      env: { ...process.env, GOFLAGS: '-mod=mod' },
      maxBuffer: 1 << 20,
    });
    const dir = (JSON.parse(stdout) as { Dir?: string }).Dir;
    if (!dir) throw new Error(`no Dir in the answer: ${stdout.slice(0, 200)}`);
    return dir;
  } catch (error) {
    throw new Error(
      `cannot fetch ${path}@${version} with the Go toolchain (the Go module proxy must be reachable): ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
}

async function crdsIn(dir: string): Promise<CrdDocument[]> {
  const files = (await readdir(dir)).filter((f) => f.endsWith('.yaml')).sort();
  const docs = await Promise.all(
    files.map(async (f) =>
      parseAllDocuments(await readFile(join(dir, f), 'utf8')).map((d) => d.toJSON() as CrdDocument),
    ),
  );
  return docs.flat().filter((d) => d?.kind === 'CustomResourceDefinition');
}
