import { describe, expect, it } from 'vitest';
import { channelsOf, parseRequest, registryOf } from './args.ts';

const base = [
  '--name',
  'template-operator',
  '--version',
  '1.2.3',
  '--manifest',
  'm.yaml',
  '--registry',
  'localhost:5000',
];

describe('parseRequest', () => {
  it('fills the defaults: component name, channel regular at this version, namespace kcp-system, HTTPS', () => {
    expect(parseRequest(base)).toEqual({
      name: 'template-operator',
      version: '1.2.3',
      componentName: 'kyma-project.io/module/template-operator',
      manifestPath: 'm.yaml',
      defaultCrPath: undefined,
      registry: { host: 'localhost:5000', plainHttp: false },
      channels: [{ channel: 'regular', version: '1.2.3' }],
      namespace: 'kcp-system',
      beta: false,
      internal: false,
      requiresDowntime: false,
      credentialsFile: undefined,
      overwrite: false,
    });
  });

  it('takes every flag', () => {
    const request = parseRequest([
      ...base,
      '--default-cr',
      'cr.yaml',
      '--component-name',
      'example.com/modules/tpl',
      '--channel',
      'fast',
      '--channel',
      'regular=1.2.0',
      '--namespace',
      'modules',
      '--beta',
      '--internal',
      '--requires-downtime',
      '--plain-http',
      '--credentials-file',
      'auth.json',
      '--overwrite',
    ]);
    expect(request).toMatchObject({
      defaultCrPath: 'cr.yaml',
      componentName: 'example.com/modules/tpl',
      namespace: 'modules',
      registry: { plainHttp: true },
      channels: [
        { channel: 'fast', version: '1.2.3' },
        { channel: 'regular', version: '1.2.0' },
      ],
      beta: true,
      internal: true,
      requiresDowntime: true,
      credentialsFile: 'auth.json',
      overwrite: true,
    });
  });

  it('takes a Helm chart instead of a manifest, with values and CRDs', () => {
    const chart = ['--name', 'greeter', '--version', '0.1.0', '--chart', 'charts/greeter', '--registry', 'r.example'];
    expect(parseRequest(chart)).toMatchObject({
      manifestPath: undefined,
      chart: { path: 'charts/greeter', valuesPath: undefined, crdsPath: undefined },
    });
    expect(parseRequest([...chart, '--values', 'v.yaml', '--crds', 'crds/'])).toMatchObject({
      chart: { path: 'charts/greeter', valuesPath: 'v.yaml', crdsPath: 'crds/' },
    });
    expect(parseRequest(base)).not.toHaveProperty('chart');
  });

  it('takes --insecure for --plain-http, as modulectl', () => {
    expect(parseRequest([...base, '--insecure'])).toMatchObject({
      registry: { host: 'localhost:5000', plainHttp: true },
    });
  });

  it('answers help before checking anything else', () => {
    expect(parseRequest(['--help'])).toBe('help');
    expect(parseRequest(['-h', '--name', 'X'])).toBe('help');
  });

  it.each([
    ['a missing name', ['--version', '1.0.0'], '--name is required (see --help)'],
    [
      'a name with upper case',
      ['--name', 'Template'],
      '--name "Template": expected words of at least 3 lowercase letters',
    ],
    ['a name with a two-letter word', ['--name', 'my-op'], '--name "my-op": expected words'],
    ['a name with digits', ['--name', 'operator2'], '--name "operator2": expected words'],
    ['a name longer than a DNS label', ['--name', `${'a'.repeat(60)}-bcd`], 'at most 63 characters'],
    ['a missing version', ['--name', 'template-operator'], '--version is required'],
    ['a two-part version', ['--name', 'abc', '--version', '1.2'], '--version "1.2": expected a semantic version'],
    [
      'a v-prefixed version',
      ['--name', 'abc', '--version', 'v1.2.3'],
      '--version "v1.2.3": expected a semantic version',
    ],
    ['leading zeros', ['--name', 'abc', '--version', '01.2.3'], '--version "01.2.3": expected a semantic version'],
    [
      'build metadata',
      ['--name', 'abc', '--version', '1.2.3-rc.1+build.5'],
      'build metadata ("+…") cannot be published',
    ],
    [
      'an upper-case pre-release',
      ['--name', 'abc', '--version', '1.2.3-RC.1'],
      'the ModuleTemplate name abc-1.2.3-RC.1 would not be a valid Kubernetes name',
    ],
    [
      'a version over 32 characters',
      ['--name', 'abc', '--version', `1.0.0-${'a'.repeat(30)}`],
      'at most 32 characters',
    ],
    [
      'a missing manifest',
      ['--name', 'abc', '--version', '1.0.0', '--registry', 'r.example'],
      '--manifest is required (or --chart for a module made of a Helm chart; see --help)',
    ],
    [
      'both a manifest and a chart',
      [...base, '--chart', 'c'],
      '--manifest and --chart exclude each other: a module installs a raw manifest or a Helm chart',
    ],
    [
      'values without a chart',
      [...base, '--values', 'v.yaml'],
      '--values belongs to a module made of a Helm chart: pass --chart (see --help)',
    ],
    [
      'CRDs without a chart',
      [...base, '--crds', 'crds.yaml'],
      '--crds belongs to a module made of a Helm chart: pass --chart (see --help)',
    ],
    [
      'an empty chart path',
      ['--name', 'abc', '--version', '1.0.0', '--chart', '', '--registry', 'r.example'],
      '--chart is required',
    ],
    ['a missing registry', ['--name', 'abc', '--version', '1.0.0', '--manifest', 'm.yaml'], '--registry is required'],
    [
      'a bad component name',
      [...base, '--component-name', 'no-domain'],
      '--component-name "no-domain": expected a domain followed by a path',
    ],
    [
      'a component name no repository can hold',
      [...base, '--component-name', 'example.com/a..b'],
      '--component-name "example.com/a..b"',
    ],
    ['a bad namespace', [...base, '--namespace', 'KCP'], '--namespace "KCP": expected a DNS-1123 label'],
    ['an unknown flag', [...base, '--force'], "Unknown option '--force' (see --help)"],
    ['a positional argument', [...base, 'extra'], "Unexpected argument 'extra' (see --help)"],
  ])('refuses %s', (_, argv, message) => {
    expect(() => parseRequest(argv)).toThrow(
      expect.objectContaining({ name: 'InputError', message: expect.stringContaining(message) }),
    );
  });

  it.each(['1.0.0', '0.0.1', '10.20.30', '1.2.3-rc.1', '1.2.3-alpha-1', '1.0.0-0.3.7', '1.0.0-x.7.z.92'])(
    'accepts version %s',
    (version) => {
      expect(parseRequest([...base.slice(0, 2), '--version', version, ...base.slice(4)])).toMatchObject({ version });
    },
  );
});

describe('registryOf', () => {
  it.each([
    ['localhost:5000', false, { host: 'localhost:5000', plainHttp: false }],
    ['http://127.0.0.1:5000', false, { host: '127.0.0.1:5000', plainHttp: true }],
    ['https://registry.example.com/', false, { host: 'registry.example.com', plainHttp: false }],
    ['registry.example.com', true, { host: 'registry.example.com', plainHttp: true }],
  ])('%s (plain HTTP flag %s)', (text, plain, expected) => expect(registryOf(text, plain)).toEqual(expected));

  it.each([
    ['europe-docker.pkg.dev/kyma-project/prod', false, 'without a path'],
    ['not a host', false, 'expected [http://]host[:port]'],
    ['https://registry.example.com', true, 'https:// contradicts --plain-http'],
  ])('refuses %s', (text, plain, message) => {
    expect(() => registryOf(text, plain)).toThrow(message);
  });
});

describe('channelsOf', () => {
  it('puts each channel at the published version unless another is named', () => {
    expect(channelsOf(['fast', 'regular=1.1.0-rc.2'], 'abc', '1.2.0')).toEqual([
      { channel: 'fast', version: '1.2.0' },
      { channel: 'regular', version: '1.1.0-rc.2' },
    ]);
  });

  it.each([
    [['Fast'], '--channel "Fast": expected 3 to 32 lowercase letters'],
    [['ab'], '--channel "ab"'],
    [['fast=1.2'], '--channel "fast=1.2": expected a semantic version'],
    [['fast='], '--channel "fast=": expected a semantic version'],
    [['fast', 'fast=1.0.0'], '--channel "fast" is given more than once'],
  ])('refuses %j', (flags, message) => {
    expect(() => channelsOf(flags, 'abc', '1.2.0')).toThrow(message);
  });
});
