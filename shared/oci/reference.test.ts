import { describe, expect, it } from 'vitest';
import {
  componentRepository,
  formatReference,
  isValidRepository,
  isValidTag,
  ocmTag,
  parseReference,
} from './reference.ts';

const DIGEST = `sha256:${'a'.repeat(64)}`;

describe('parseReference', () => {
  it.each([
    [
      '127.0.0.1:5000/component-descriptors/kyma-project.io/module/sample:1.0.0',
      { host: '127.0.0.1:5000', repository: 'component-descriptors/kyma-project.io/module/sample', tag: '1.0.0' },
    ],
    [
      `europe-docker.pkg.dev/kyma-project/prod/template-operator@${DIGEST}`,
      { host: 'europe-docker.pkg.dev', repository: 'kyma-project/prod/template-operator', digest: DIGEST },
    ],
    [`localhost:5000/a/b:v1@${DIGEST}`, { host: 'localhost:5000', repository: 'a/b', tag: 'v1', digest: DIGEST }],
    ['[::1]:5000/repo:latest', { host: '[::1]:5000', repository: 'repo', tag: 'latest' }],
  ])('parses %s', (text, expected) => {
    expect(parseReference(text)).toEqual(expected);
    expect(formatReference(parseReference(text))).toBe(text);
  });

  it.each([
    ['no host', 'repo:1.0.0'],
    ['neither tag nor digest', 'registry.example/repo'],
    ['upper-case repository', 'registry.example/Repo:1'],
    ['scheme', 'https://registry.example/repo:1'],
    ['invalid tag', 'registry.example/repo:-bad'],
    ['short digest', 'registry.example/repo@sha256:abc'],
    ['two digests', `registry.example/repo@${DIGEST}@${DIGEST}`],
    ['path traversal', 'registry.example/../repo:1'],
  ])('rejects %s', (_, text) => {
    expect(() => parseReference(text)).toThrow(expect.objectContaining({ code: 'BadContent' }));
  });
});

describe('distribution-spec grammar', () => {
  it.each([
    ['a', true],
    ['a/b/c', true],
    ['kyma-project.io/module/sample', true],
    ['a__b', true],
    ['a---b', true],
    ['a___b', false],
    ['-a', false],
    ['a/', false],
    ['A', false],
    ['a//b', false],
    ['a'.repeat(256), false],
  ])('repository %s valid: %s', (name, valid) => expect(isValidRepository(name)).toBe(valid));

  it.each([
    ['1.0.0', true],
    ['_x', true],
    ['v1.0.0-rc.1', true],
    ['a'.repeat(128), true],
    ['a'.repeat(129), false],
    ['.x', false],
    ['1.0.0+b', false],
    ['', false],
  ])('tag %s valid: %s', (tag, valid) => expect(isValidTag(tag)).toBe(valid));
});

describe('OCM version → tag', () => {
  it.each([
    ['1.0.0', '1.0.0'],
    ['1.0.0+abc', '1.0.0.build-abc'],
    ['2.3.1-rc.1+20260101.sha', '2.3.1-rc.1.build-20260101.sha'],
  ])('%s → %s', (version, tag) => expect(ocmTag(version)).toBe(tag));

  it('rejects versions that make no tag', () => {
    expect(() => ocmTag('1.0 0')).toThrow(/cannot be mapped/);
  });

  it('maps component names to repositories (urlPath mapping)', () => {
    expect(componentRepository('kyma-project.io/module/sample')).toBe(
      'component-descriptors/kyma-project.io/module/sample',
    );
    expect(() => componentRepository('Kyma/Upper')).toThrow(/not a valid repository/);
  });
});
