// A Helm chart as a module author or another operator hands it over (ADR 37): a chart directory, packaged here the
// way `helm package` lays a .tgz out (every file under `<chart name>/`) and deterministically (sorted, mtime 0); or a
// packaged chart, checked. No helm binary. The module CLI and the manifest library's renderChartModule use it.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { parse } from 'yaml';
import { readTar, writeTar, type TarFile } from '../oci/tar.ts';

/** A packaged chart: the .tgz, and its files with paths relative to the chart (`Chart.yaml`, `crds/…`). */
export interface PackagedChart {
  name: string;
  version: string;
  bytes: Uint8Array;
  files: TarFile[];
}

const MAX_UNPACKED_BYTES = 64 * 1024 * 1024;
const CHART_NAME = /^[A-Za-z0-9][-A-Za-z0-9_.]*$/;
const CHART_VERSION = /^v?\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?(\+[0-9A-Za-z.-]+)?$/;

/** A chart directory or a packaged chart file (.tgz), by what `path` is. Throws a one-line reason. */
export async function loadChart(path: string): Promise<PackagedChart> {
  const found = await stat(path).catch(() => undefined);
  if (!found) throw new Error('no such file or directory (expected a chart directory or a packaged chart .tgz)');
  return found.isDirectory() ? packChart(await readChartDirectory(path)) : readPackagedChart(await readFile(path));
}

/** The regular files of a chart directory, paths relative to it, in name order. */
export async function readChartDirectory(dir: string, under = ''): Promise<TarFile[]> {
  const files: TarFile[] = [];
  for (const entry of (await readdir(join(dir, under), { withFileTypes: true })).sort((a, b) =>
    a.name < b.name ? -1 : 1,
  )) {
    const path = under ? `${under}/${entry.name}` : entry.name;
    if (entry.isDirectory()) files.push(...(await readChartDirectory(dir, path)));
    else if (entry.isFile()) files.push({ path, data: await readFile(join(dir, path)) });
  }
  return files;
}

/** PURE. A chart directory's files as a packaged chart; files matching its `.helmignore` are left out. */
export function packChart(files: TarFile[]): PackagedChart {
  const ignore = ignoreRules(files.find((f) => f.path === '.helmignore'));
  const kept = files.filter((f) => !ignore(f.path)).sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const { name, version } = chartMetadata(kept.find((f) => f.path === 'Chart.yaml'));
  const tar = writeTar(kept.map((f) => ({ path: `${name}/${f.path}`, data: f.data })));
  return { name, version, bytes: new Uint8Array(gzipSync(tar, { level: 9 })), files: kept };
}

/** PURE. A packaged chart checked: gzip of a tar whose files are under one directory holding Chart.yaml. */
export function readPackagedChart(bytes: Uint8Array): PackagedChart {
  if (bytes[0] !== 0x1f || bytes[1] !== 0x8b)
    throw new Error('is not gzip-compressed (expected a packaged chart .tgz, as helm package writes)');
  let entries: TarFile[];
  try {
    entries = readTar(gunzipSync(bytes, { maxOutputLength: MAX_UNPACKED_BYTES }));
  } catch (error) {
    throw new Error(
      `is not a gzip-compressed tar archive (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`,
      { cause: error },
    );
  }
  const top = entries[0]?.path.split('/')[0] ?? '';
  if (!entries.length || entries.some((e) => !e.path.startsWith(`${top}/`)))
    throw new Error('holds no chart: every file of a packaged chart is under one directory');
  const files = entries.map((e) => ({ path: e.path.slice(top.length + 1), data: e.data }));
  const { name, version } = chartMetadata(files.find((f) => f.path === 'Chart.yaml'));
  return { name, version, bytes, files };
}

/** PURE. Name and version from Chart.yaml (Helm requires both; the version is semver). */
export function chartMetadata(file: TarFile | undefined): { name: string; version: string } {
  if (!file) throw new Error('has no Chart.yaml (a Helm chart needs one at its top)');
  let meta: unknown;
  try {
    meta = parse(new TextDecoder().decode(file.data), { maxAliasCount: 20 });
  } catch (error) {
    throw new Error(
      `Chart.yaml is not valid YAML: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
      { cause: error },
    );
  }
  const { name, version } = (typeof meta === 'object' && meta !== null ? meta : {}) as {
    name?: unknown;
    version?: unknown;
  };
  if (typeof name !== 'string' || !CHART_NAME.test(name))
    throw new Error(`Chart.yaml: name must be a chart name, got ${JSON.stringify(name)}`);
  const text = typeof version === 'number' ? String(version) : version;
  if (typeof text !== 'string' || !CHART_VERSION.test(text))
    throw new Error(`Chart.yaml: version must be a semantic version (e.g. 0.1.0), got ${JSON.stringify(version)}`);
  return { name, version: text };
}

/** PURE. Whether `.helmignore` ignores a path, by a common subset of its rules (ADR 37): `#` comments, `*`/`?` in a
 * segment, a leading `/` anchors, a trailing `/` names directories, no `/` matches any segment; `!` and `**` lines are
 * ignored. */
export function ignoreRules(file: TarFile | undefined): (path: string) => boolean {
  const lines = file
    ? new TextDecoder()
        .decode(file.data)
        .split('\n')
        .map((l) => l.trim())
    : [];
  const rules = lines
    .filter((l) => l && !l.startsWith('#') && !l.startsWith('!') && !l.includes('**'))
    .map((line) => {
      const dirOnly = line.endsWith('/');
      const pattern = line.replace(/^\//, '').replace(/\/$/, '');
      const regex = new RegExp(
        `^${pattern
          .replace(/[.+^${}()|[\]\\]/g, '\\$&')
          .replaceAll('*', '[^/]*')
          .replaceAll('?', '[^/]')}$`,
      );
      return { regex, dirOnly, anchored: line.startsWith('/') || pattern.includes('/') };
    });
  return (path) => {
    const segments = path.split('/');
    return rules.some(({ regex, dirOnly, anchored }) =>
      segments.some((_, i) => {
        const isDir = i < segments.length - 1;
        if (dirOnly && !isDir) return false;
        return anchored ? regex.test(segments.slice(0, i + 1).join('/')) : regex.test(segments[i] ?? '');
      }),
    );
  };
}
