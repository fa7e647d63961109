import { gunzipSync, gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { readTar } from '../oci/tar.ts';
import { ignoreRules, packChart, readPackagedChart } from './helm-archive.ts';

const file = (path: string, text: string) => ({ path, data: new TextEncoder().encode(text) });
const CHART = file('Chart.yaml', 'apiVersion: v2\nname: greeter\nversion: 0.2.0\n');
const files = [file('templates/cm.yaml', 'kind: ConfigMap\n'), CHART, file('values.yaml', 'message: hi\n')];
const paths = (bytes: Uint8Array) => readTar(gunzipSync(bytes)).map((f) => f.path);

describe('packChart', () => {
  it('packs a chart directory as helm does: every file under <chart name>/, in name order', () => {
    const chart = packChart(files);
    expect(chart).toMatchObject({ name: 'greeter', version: '0.2.0' });
    expect(paths(chart.bytes)).toEqual(['greeter/Chart.yaml', 'greeter/templates/cm.yaml', 'greeter/values.yaml']);
  });

  it('is deterministic: the same files make the same bytes, whatever their order', () => {
    expect(packChart(files).bytes).toEqual(packChart([...files].reverse()).bytes);
  });

  it('leaves out what .helmignore names', () => {
    const ignored = [
      ...files,
      file('.helmignore', '# comment\n*.bak\n.git/\n/docs\n'),
      file('values.yaml.bak', ''),
      file('.git/HEAD', ''),
      file('docs/a.md', ''),
      file('templates/docs/b.yaml', 'x: 1\n'),
    ];
    expect(paths(packChart(ignored).bytes)).toEqual([
      'greeter/.helmignore',
      'greeter/Chart.yaml',
      'greeter/templates/cm.yaml',
      'greeter/templates/docs/b.yaml',
      'greeter/values.yaml',
    ]);
  });

  it.each([
    ['no Chart.yaml', [file('values.yaml', 'a: 1\n')], 'has no Chart.yaml (a Helm chart needs one at its top)'],
    [
      'a Chart.yaml without name',
      [file('Chart.yaml', 'version: 0.1.0\n')],
      'Chart.yaml: name must be a chart name, got undefined',
    ],
    [
      'a version that is not semver',
      [file('Chart.yaml', 'name: a\nversion: "1.0"\n')],
      'Chart.yaml: version must be a semantic version (e.g. 0.1.0), got "1.0"',
    ],
    ['Chart.yaml that is not YAML', [file('Chart.yaml', 'name: [x\n')], /^Chart.yaml is not valid YAML: /],
  ])('refuses %s', (_, input, message) => {
    expect(() => packChart(input)).toThrow(message);
  });
});

describe('readPackagedChart', () => {
  it('reads name, version and files of a packaged chart', () => {
    const chart = readPackagedChart(packChart(files).bytes);
    expect(chart).toMatchObject({ name: 'greeter', version: '0.2.0' });
    expect(chart.files.map((f) => f.path)).toEqual(['Chart.yaml', 'templates/cm.yaml', 'values.yaml']);
  });

  it.each([
    [
      'plain text',
      new TextEncoder().encode('apiVersion: v2\n'),
      'is not gzip-compressed (expected a packaged chart .tgz, as helm package writes)',
    ],
    ['gzip of something not a tar', new Uint8Array(gzipSync('hello')), /^is not a gzip-compressed tar archive \(/],
    ['broken gzip data', new Uint8Array([0x1f, 0x8b, 8, 0, 1, 2, 3]), /^is not a gzip-compressed tar archive \(/],
  ])('refuses %s', (_, bytes, message) => {
    expect(() => readPackagedChart(bytes)).toThrow(message);
  });
});

describe('ignoreRules', () => {
  it('matches segments, anchored paths and directories only where asked', () => {
    const ignored = ignoreRules(file('.helmignore', 'tmp/\n/ci/*.yaml\n*.t?t\n!keep.txt\n'));
    expect(['tmp/a', 'x/tmp/b', 'ci/a.yaml', 'a.txt', 'dir/b.tet'].map(ignored)).toEqual([
      true,
      true,
      true,
      true,
      true,
    ]);
    expect(['tmp', 'x/ci/a.yaml', 'ci/sub/a.yaml', 'a.text', 'keep.tx'].map(ignored)).toEqual([
      false,
      false,
      false,
      false,
      false,
    ]);
  });
});
