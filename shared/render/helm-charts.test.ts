import { describe, expect, it } from 'vitest';
import type { ChartInstall } from '../core/manifest.ts';
import {
  chartRenders,
  inReleaseNamespace,
  installsProblem,
  isPinned,
  templateArgs,
  type ChartRender,
} from './helm-charts.ts';

const REGISTRY = 'registry.local:5000';
const repoChart = (name: string, extra: object = {}): ChartInstall => ({
  name,
  source: {
    type: 'helm-chart',
    chartName: 'greeter',
    url: 'http://charts.local/',
    version: '0.1.0',
    ...extra,
  } as ChartInstall['source'],
});
const ociChart = (name: string, extra: object = {}): ChartInstall => ({
  name,
  source: {
    type: 'oci-ref',
    repo: REGISTRY,
    name: 'charts/greeter',
    ref: `sha256:${'a'.repeat(64)}`,
    ...extra,
  } as ChartInstall['source'],
});

describe('installsProblem', () => {
  it('accepts charts from a repository and packaged charts in the module registry', () => {
    expect(installsProblem([repoChart('web'), ociChart('api')], REGISTRY)).toBe('');
  });

  it.each([
    ['a release name Helm refuses', [repoChart('Web')], 'spec.installs[0].name must be a Helm release name'],
    ['the same release twice', [repoChart('web'), ociChart('web')], 'spec.installs[1].name web is used twice'],
    [
      'an unknown source type',
      [{ name: 'web', source: { type: 'git' } } as unknown as ChartInstall],
      'type must be helm-chart or oci-ref, got "git"',
    ],
    ['a repository that is not http(s)', [repoChart('web', { url: 'file:///etc' })], 'url must be http(s), got file:'],
    ['a chart name with a path', [repoChart('web', { chartName: '../x' })], 'chartName must be a chart name'],
    [
      'a packaged chart in another registry',
      [ociChart('web', { repo: 'evil.example.com' })],
      'repo evil.example.com is not the configured module registry',
    ],
    ['a packaged chart by tag', [ociChart('web', { ref: 'latest' })], "ref must be the chart layer's sha256 digest"],
  ])('refuses %s', (_, installs, message) => {
    expect(installsProblem(installs, REGISTRY)).toContain(message);
  });

  it('refuses credentials in a repository URL without repeating them', () => {
    const problem = installsProblem([repoChart('web', { url: 'https://user:s3cret@charts.example.com/' })], REGISTRY);
    expect(problem).toContain('must not carry credentials');
    expect(problem).not.toContain('s3cret');
  });
});

describe('chartRenders', () => {
  const config =
    'configs:\n  - name: web\n    namespace: greeter\n    values: {message: hi, nested: {a: 1}}\n    set: ["replicas=2", "extra=true"]\n';

  it('gives each install its config entry; installs without one get no values and kyma-system', () => {
    expect(chartRenders([repoChart('web'), ociChart('api')], config)).toEqual([
      {
        install: repoChart('web'),
        namespace: 'greeter',
        values: { message: 'hi', nested: { a: 1 } },
        set: ['replicas=2', 'extra=true'],
        createNamespace: false,
      },
      { install: ociChart('api'), namespace: 'kyma-system', values: {}, set: [], createNamespace: false },
    ]);
    expect(chartRenders([repoChart('web')], undefined)[0]).toMatchObject({
      namespace: 'kyma-system',
      values: {},
      set: [],
    });
  });

  it.each([
    ['an entry for no chart', 'configs: [{name: other}]', 'entry other names no chart of spec.installs'],
    ['values that are not a mapping', 'configs: [{name: web, values: [1]}]', 'web.values must be a mapping'],
    ['a set flag without =', 'configs: [{name: web, set: [replicas]}]', 'web.set must be a list of key=value strings'],
    ['a bad namespace', 'configs: [{name: web, namespace: Bad_NS}]', 'web.namespace must be a namespace name'],
    [
      'createNamespace that is not a boolean',
      'configs: [{name: web, createNamespace: "yes"}]',
      'web.createNamespace must be true or false',
    ],
    ['configs that are not a list', 'configs: {web: {}}', 'configs must be a list'],
    ['invalid YAML', 'configs: [', 'config layer is not valid YAML'],
  ])('refuses a config layer with %s', (_, yaml, message) => {
    expect(() => chartRenders([repoChart('web')], yaml)).toThrow(message);
  });
});

describe('templateArgs', () => {
  const render = chartRenders(
    [repoChart('web')],
    'configs: [{name: web, namespace: greeter, set: ["a=b"]}]',
  )[0] as ChartRender;
  it('renders a repository chart at its version, CRDs included, tests skipped, values and set flags in order', () => {
    expect(
      templateArgs(render, { name: 'greeter', repo: 'http://charts.local/', version: '0.1.0' }, '/tmp/v.yaml'),
    ).toEqual([
      'template',
      'web',
      'greeter',
      '--repo',
      'http://charts.local/',
      '--version',
      '0.1.0',
      '--namespace',
      'greeter',
      '--include-crds',
      '--skip-tests',
      '--values',
      '/tmp/v.yaml',
      '--set',
      'a=b',
    ]);
  });
  it('renders a packaged chart from its file', () => {
    expect(templateArgs(render, { file: '/tmp/chart.tgz' }, undefined).slice(0, 3)).toEqual([
      'template',
      'web',
      '/tmp/chart.tgz',
    ]);
  });
});

describe('inReleaseNamespace', () => {
  it('puts objects without a namespace into the release namespace, keeps explicit ones, drops empty documents', () => {
    const yaml =
      'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\n# only a comment\n---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: b, namespace: other}\n';
    expect(inReleaseNamespace(yaml, 'greeter')).toBe(
      'apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: greeter\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n  namespace: other\n',
    );
  });
});

describe('inReleaseNamespace with createNamespace', () => {
  it('puts the release namespace first', () => {
    expect(
      inReleaseNamespace('apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n', 'greeter', true).split('---\n')[0],
    ).toBe('apiVersion: v1\nkind: Namespace\nmetadata:\n  name: greeter\n');
  });
});

describe('isPinned', () => {
  it('reuses renders of packaged charts and exact versions for good, not of ranges or the latest', () => {
    expect(isPinned(ociChart('a').source)).toBe(true);
    expect(isPinned(repoChart('a').source)).toBe(true);
    expect(isPinned(repoChart('a', { version: '^0.1.0' }).source)).toBe(false);
    expect(isPinned(repoChart('a', { version: undefined }).source)).toBe(false);
  });
});
