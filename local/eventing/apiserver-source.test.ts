import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { apiServerEvent, guessPlural, selfLink } from '../../shared/kube/apiserver-events.ts';
import { readManifestDirectory } from '../controlplane/object-files.ts';
import { apiServerSourcesOf, parseApiServerSources } from './apiserver-source-spec.ts';

describe('ApiServerSource events (Resource mode)', () => {
  it("carry Knative's attributes and the object as data", () => {
    const object = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name: 'web', namespace: 'team-a' },
      spec: {},
    };
    const event = apiServerEvent('update', 'https://10.96.0.1:443', object, { origin: 'kcp', type: 'ignored' });
    expect(event).toMatchObject({
      specversion: '1.0',
      type: 'dev.knative.apiserver.resource.update',
      source: 'https://10.96.0.1:443',
      subject: '/apis/apps/v1/namespaces/team-a/deployments/web',
      datacontenttype: 'application/json',
      data: object,
      kind: 'Deployment',
      apiversion: 'apps/v1',
      name: 'web',
      namespace: 'team-a',
      origin: 'kcp',
    });
  });

  it('build the fake selfLink like Knative', () => {
    expect(selfLink('v1', 'Pod', 'default', 'p1')).toBe('/apis/v1/namespaces/default/pods/p1');
    expect(selfLink('v1', 'Namespace', '', 'team-a')).toBe('/apis/v1/namespaces//namespaces/team-a');
    expect(selfLink('operator.kyma-project.io/v1beta2', 'Kyma', 'kcp-system', 'k')).toBe(
      '/apis/operator.kyma-project.io/v1beta2/namespaces/kcp-system/kymas/k',
    );
    expect(apiServerEvent('add', 's', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' } })).toMatchObject({
      namespace: '',
    });
  });

  it('guess plurals like UnsafeGuessKindToResource', () => {
    expect(['ConfigMap', 'Ingress', 'Policy', 'Endpoints', 'ModuleReleaseMeta'].map(guessPlural)).toEqual([
      'configmaps',
      'ingresses',
      'policies',
      'endpoints',
      'modulereleasemetas',
    ]);
  });
});

describe('ApiServerSource YAML', () => {
  it('reads the resources: own namespace by default, {} = all, selectors as label selector text', async () => {
    const resources = apiServerSourcesOf(
      await readManifestDirectory(fileURLToPath(new URL('../../test/fixtures/eventing/sources', import.meta.url))),
    );
    expect(resources).toEqual([
      { apiVersion: 'operator.kyma-project.io/v1beta2', kind: 'Kyma', namespace: 'kcp-system' },
      {
        apiVersion: 'operator.kyma-project.io/v1beta2',
        kind: 'Manifest',
        namespace: 'kcp-system',
        labelSelector: 'operator.kyma-project.io/managed-by=lifecycle-manager,tier in (a,b),!legacy',
      },
      { apiVersion: 'v1', kind: 'Secret', extensions: { origin: 'kcp' } },
    ]);
  });

  const source = (spec: string) =>
    `apiVersion: sources.knative.dev/v1\nkind: ApiServerSource\nmetadata: {name: s, namespace: ns}\nspec:\n${spec}`;

  it.each([
    ['the default Reference mode', '  resources: [{apiVersion: v1, kind: Pod}]', /only Resource mode/],
    ['no resources', '  mode: Resource', /at least one resource/],
    [
      'a namespace selector with labels',
      '  mode: Resource\n  namespaceSelector: {matchLabels: {a: b}}\n  resources: [{apiVersion: v1, kind: Pod}]',
      /namespaceSelector/,
    ],
    [
      'an owner filter',
      '  mode: Resource\n  owner: {kind: Deployment}\n  resources: [{apiVersion: v1, kind: Pod}]',
      /spec\.owner: not supported/,
    ],
    ['a resource without kind', '  mode: Resource\n  resources: [{apiVersion: v1}]', /kind: is required/],
  ])('rejects %s', (_, spec, message) => {
    expect(() => parseApiServerSources(source(spec), 'src.yaml')).toThrow(message);
    expect(() => parseApiServerSources(source(spec), 'src.yaml')).toThrow(/^src\.yaml: ApiServerSource s: /);
  });
});
