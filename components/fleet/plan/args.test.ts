import { describe, expect, it } from 'vitest';
import { parsePlanArgs } from './args.ts';
import { comparable } from './read-only.ts';

describe('plan arguments', () => {
  it('a stored ModuleReleaseMeta with channels set, or a file; sampling and concurrency', () => {
    expect(
      parsePlanArgs([
        '--release-meta',
        'papa',
        '--set-channel',
        'fast=1.2.0',
        '--set-channel',
        'regular=1.1.0',
        '--kyma',
        'k1',
        '--sample-per-group',
        '3',
        '-o',
        'json',
      ]),
    ).toMatchObject({
      releaseMeta: { name: 'papa' },
      setChannels: [
        { channel: 'fast', version: '1.2.0' },
        { channel: 'regular', version: '1.1.0' },
      ],
      kymas: ['k1'],
      samplePerGroup: 3,
      concurrency: 8,
      output: 'json',
    });
    expect(parsePlanArgs(['--release-meta', './papa.yaml'])).toMatchObject({
      releaseMeta: { file: './papa.yaml' },
      samplePerGroup: undefined,
    });
    expect(parsePlanArgs(['--template', 't.yaml', '--concurrency', '2'])).toMatchObject({
      template: 't.yaml',
      concurrency: 2,
    });
  });

  it.each([
    [[], 'plan needs --release-meta <file|name> or --template <file>'],
    [
      ['--release-meta', 'papa'],
      '--release-meta <name> needs at least one --set-channel <channel>=<version> (or pass a file)',
    ],
    [
      ['--release-meta', 'papa.yaml', '--template', 't.yaml'],
      'plan previews one change: --release-meta or --template, not both',
    ],
    [
      ['--template', 't.yaml', '--set-channel', 'fast=1.0.0'],
      '--set-channel changes a stored ModuleReleaseMeta: pass its name as --release-meta',
    ],
    [
      ['--release-meta', 'papa', '--set-channel', 'fast'],
      '--set-channel "fast": expected <channel>=<version>, e.g. fast=1.2.0',
    ],
    [
      ['--release-meta', 'papa', '--set-channel', 'fast=1.0.0', '--sample-per-group', '0'],
      '--sample-per-group "0": expected a whole number from 1 to 1000',
    ],
    [['--release-meta', 'papa', '--set-channel', 'fast=1.0.0', '-o', 'yaml'], '--output "yaml": expected text or json'],
  ])('refuses %j', (argv, message) => {
    expect(() => parsePlanArgs(argv)).toThrow(message);
  });
});

describe('comparable', () => {
  it('leaves out what the server maintains and the applied hash, keeps everything else', () => {
    const live = {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: {
        name: 'c',
        resourceVersion: '7',
        uid: 'u',
        managedFields: [{}],
        annotations: { 'operator.kyma-project.io/applied-hash': 'x', keep: 'y' },
      },
      data: { a: '1' },
      status: {},
    };
    expect(comparable(live)).toEqual({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'c', annotations: { keep: 'y' } },
      data: { a: '1' },
    });
  });
});
