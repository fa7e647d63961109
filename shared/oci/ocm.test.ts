import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { moduleContent, parseComponentDescriptor, registryHostOf } from './ocm.ts';

const RAW = `sha256:${'1'.repeat(64)}`;
const CR = `sha256:${'3'.repeat(64)}`;
const IMAGE = `registry.example.net/prod/sample-manager:2.3.1@sha256:${'2'.repeat(64)}`;

const rawManifest = (access: object = {}) => ({
  name: 'raw-manifest',
  type: 'directoryTree',
  relation: 'local',
  version: '2.3.1',
  access: {
    type: 'localBlob',
    localReference: RAW,
    mediaType: 'application/x-tar',
    referenceName: 'raw-manifest',
    ...access,
  },
});
const image = {
  name: 'sample-manager',
  type: 'ociArtifact',
  relation: 'external',
  version: '2.3.1',
  access: { type: 'ociArtifact', imageReference: IMAGE },
};
const context = {
  type: 'OCIRegistry',
  baseUrl: 'registry.example.net',
  subPath: 'modules',
  componentNameMapping: 'urlPath',
};

const v2 = (resources: object[]) =>
  stringify({
    meta: { schemaVersion: 'v2' },
    component: {
      name: 'kyma-project.io/module/sample-mod',
      version: '2.3.1',
      provider: '{"name":"kyma-project.io"}',
      labels: [{ name: 'operator.kyma-project.io/beta', value: 'false', version: 'v1' }],
      repositoryContexts: [context],
      componentReferences: [],
      sources: [],
      resources,
    },
  });

describe('parseComponentDescriptor', () => {
  it('reads a schema v2 descriptor', () => {
    expect(parseComponentDescriptor(v2([rawManifest(), image]))).toEqual({
      name: 'kyma-project.io/module/sample-mod',
      version: '2.3.1',
      repositoryContexts: [context],
      resources: [rawManifest(), image],
    });
  });

  it('reads an ocm.software/v3alpha1 descriptor', () => {
    const v3 = stringify({
      apiVersion: 'ocm.software/v3alpha1',
      kind: 'ComponentVersion',
      metadata: { name: 'kyma-project.io/module/sample-mod', version: '2.3.1', provider: { name: 'kyma-project.io' } },
      repositoryContexts: [context],
      spec: { resources: [rawManifest()] },
    });
    expect(parseComponentDescriptor(v3)).toMatchObject({
      name: 'kyma-project.io/module/sample-mod',
      resources: [rawManifest()],
    });
  });

  it('rejects a YAML alias bomb', () => {
    const bomb = [
      'a: &a ["x","x","x","x","x","x","x","x","x"]',
      ...'bcdefghi'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`),
      'meta: {schemaVersion: v2}',
      'component: {name: n, version: "1", resources: [*i]}',
    ].join('\n');
    expect(() => parseComponentDescriptor(bomb)).toThrow(/Excessive alias count/);
  });

  it.each([
    ['invalid YAML', 'meta: [', /not valid YAML/],
    ['several documents', `${v2([])}---\n${v2([])}`, /not valid YAML/],
    ['duplicate keys', 'meta: {schemaVersion: v2}\nmeta: {}\n', /not valid YAML/],
    ['a scalar', 'hello', /not a YAML mapping/],
    ['an unknown schema', 'meta: {schemaVersion: v9}\n', /unsupported component descriptor schema/],
    ['no component name', 'meta: {schemaVersion: v2}\ncomponent: {version: "1"}\n', /no component name/],
    ['no version', 'meta: {schemaVersion: v2}\ncomponent: {name: n}\n', /no version/],
    [
      'resources that are no list',
      'meta: {schemaVersion: v2}\ncomponent: {name: n, version: "1", resources: x}\n',
      /not a list/,
    ],
    ['a resource without access', v2([{ name: 'r', type: 't' }]), /no access type/],
  ])('rejects %s', (_, yaml, message) => {
    expect(() => parseComponentDescriptor(yaml)).toThrow(message);
  });
});

describe('moduleContent', () => {
  const content = (resources: object[]) => moduleContent(parseComponentDescriptor(v2(resources)));
  const component = 'kyma-project.io/module/sample-mod';

  it("names the layers by the last repository context's component name mapping: urlPath (or none) by the component, sha256-digest by its hex digest, as upstream", () => {
    const descriptor = parseComponentDescriptor(v2([rawManifest()]));
    const mapped = (...mappings: string[]) => ({
      ...descriptor,
      repositoryContexts: mappings.map((componentNameMapping) => ({ ...context, componentNameMapping })),
    });
    const hex = 'd57d6973160ecabe2ea43d5fae3867b0ac05f37c527cd9dac4ea7c520e207ec9'; // printf %s <component> | sha256sum
    expect(moduleContent(mapped('sha256-digest'))).toEqual({
      install: { name: 'raw-manifest', type: 'oci-dir', ref: RAW, componentName: component, blobName: hex },
      layers: [{ name: 'raw-manifest', type: 'oci-dir', ref: RAW, componentName: component, blobName: hex }],
      localizedImages: [],
    });
    expect(moduleContent(mapped('sha256-digest', 'urlPath')).install).not.toHaveProperty('blobName');
    expect(moduleContent(mapped('urlPath', 'sha256-digest')).install.blobName).toBe(hex);
    expect(
      moduleContent({ ...descriptor, repositoryContexts: [{ type: 'OCIRegistry', baseUrl: 'r' }] }).install,
    ).toEqual({ name: 'raw-manifest', type: 'oci-dir', ref: RAW, componentName: component });
  });

  it('refuses any other component name mapping, naming it and the mappings it reads', () => {
    const descriptor = parseComponentDescriptor(v2([rawManifest()]));
    expect(() =>
      moduleContent({ ...descriptor, repositoryContexts: [{ ...context, componentNameMapping: 'foo' }] }),
    ).toThrow(
      expect.objectContaining({
        code: 'BadContent',
        message: `component ${component}:2.3.1: repository context componentNameMapping "foo" is not supported (the lifecycle manager reads urlPath and sha256-digest)`,
      }),
    );
  });

  it('installs the tarred raw-manifest as oci-dir and localizes ociArtifact images', () => {
    const defaultCr = { ...rawManifest({ localReference: CR, referenceName: 'default-cr' }), name: 'default-cr' };
    expect(content([rawManifest(), defaultCr, image])).toEqual({
      install: { name: 'raw-manifest', type: 'oci-dir', ref: RAW, componentName: component },
      layers: [
        { name: 'raw-manifest', type: 'oci-dir', ref: RAW, componentName: component },
        { name: 'default-cr', type: 'oci-dir', ref: CR, componentName: component },
      ],
      localizedImages: [IMAGE],
    });
  });

  it.each([
    ['application/octet-stream', { mediaType: 'application/octet-stream' }, 'oci-ref'],
    ['localBlob/v1', { type: 'localBlob/v1' }, 'oci-dir'],
    ['legacy localOciBlob', { type: 'localOciBlob' }, 'oci-dir'],
  ])('maps %s', (_, access, type) => {
    expect(content([rawManifest(access)]).install.type).toBe(type);
  });

  it('lists ociRegistry images without localizing them', () => {
    const legacy = { ...image, access: { type: 'ociRegistry', imageReference: IMAGE } };
    expect(content([rawManifest(), legacy]).localizedImages).toEqual([]);
  });

  it.each([
    [
      'an unknown access type',
      [rawManifest(), { ...image, access: { type: 's3', bucket: 'b' } }],
      /access type "s3" not supported/,
    ],
    ['a missing raw-manifest', [image], /has no local raw-manifest or helm-chart resource/],
    ['a raw-manifest without digest', [rawManifest({ localReference: '' })], /no sha256 localReference/],
    ['an image without reference', [rawManifest(), { ...image, access: { type: 'ociArtifact' } }], /no imageReference/],
  ])('rejects %s', (_, resources, message) => {
    expect(() => content(resources)).toThrow(
      expect.objectContaining({ code: 'BadContent', message: expect.stringMatching(message) }),
    );
  });
});

describe('registryHostOf', () => {
  const withContexts = (...baseUrls: string[]) => ({
    name: 'c',
    version: '1.0.0',
    resources: [],
    repositoryContexts: baseUrls.map((baseUrl) => ({ type: 'OCIRegistry', baseUrl })),
  });

  it('is the host of the last repository context, without scheme or path, lower case', () => {
    expect(registryHostOf(withContexts('build.example.net', 'https://Prod.Example.net:5000/kyma/modules'))).toBe(
      'prod.example.net:5000',
    );
    expect(registryHostOf(withContexts('127.0.0.1:5000'))).toBe('127.0.0.1:5000');
  });

  it('is undefined without a context or a baseUrl', () => {
    expect(registryHostOf(withContexts())).toBeUndefined();
    expect(registryHostOf({ ...withContexts(), repositoryContexts: [{ type: 'OCIRegistry' }] })).toBeUndefined();
  });
});
