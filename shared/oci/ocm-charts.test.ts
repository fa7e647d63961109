import { describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { moduleContent, parseComponentDescriptor } from './ocm.ts';

const COMPONENT = 'kyma-project.io/module/hello-chart';
const digest = (n: number) => `sha256:${String(n).repeat(64)}`;
const blob = (name: string, ref: string, mediaType: string) => ({
  name,
  type: 'blob',
  relation: 'local',
  version: '0.1.0',
  access: { type: 'localBlob', localReference: ref, mediaType, referenceName: name },
});
const chart = blob('helm-chart', digest(1), 'application/vnd.cncf.helm.chart.content.v1.tar+gzip');
const config = blob('chart-config', digest(2), 'application/vnd.kyma-project.module.chart-config.v1+yaml');
const crds = blob('chart-crds', digest(3), 'application/vnd.kyma-project.module.chart-crds.v1+yaml');
const raw = blob('raw-manifest', digest(4), 'application/x-tar');
const content = (...resources: object[]) =>
  moduleContent(
    parseComponentDescriptor(
      stringify({
        meta: { schemaVersion: 'v2' },
        component: {
          name: COMPONENT,
          version: '0.1.0',
          repositoryContexts: [{ type: 'OCIRegistry', baseUrl: 'r.example', componentNameMapping: 'urlPath' }],
          resources,
        },
      }),
    ),
  );
const layer = (name: string, n: number) => ({ name, type: 'oci-ref', ref: digest(n), componentName: COMPONENT });

describe('moduleContent of a module made of a Helm chart (ADR 37)', () => {
  it('installs the chart layer, with its config and CRDs layers', () => {
    expect(content(chart, config, crds).install).toEqual({
      ...layer('helm-chart', 1),
      config: layer('chart-config', 2),
      crds: layer('chart-crds', 3),
    });
  });

  it('installs a chart without config or CRDs layers', () => {
    expect(content(chart).install).toEqual(layer('helm-chart', 1));
  });

  it('keeps raw-manifest modules as they were (no chart fields)', () => {
    expect(content(raw, config).install).toEqual({ ...layer('raw-manifest', 4), type: 'oci-dir' });
  });

  it.each([
    [
      'both a raw manifest and a chart',
      [raw, chart],
      `component ${COMPONENT}:0.1.0 has both a raw-manifest and a helm-chart resource; a module installs one of them`,
    ],
    ['neither', [config, crds], `component ${COMPONENT}:0.1.0 has no local raw-manifest or helm-chart resource`],
    [
      'a chart that is a plain tar',
      [{ ...chart, access: { ...chart.access, mediaType: 'application/x-tar' } }],
      `component ${COMPONENT}:0.1.0: resource helm-chart must be a packaged chart (application/vnd.cncf.helm.chart.content.v1.tar+gzip), not a tar`,
    ],
  ])('refuses %s with a clear message', (_, resources, message) => {
    expect(() => content(...resources)).toThrow(expect.objectContaining({ code: 'BadContent', message }));
  });
});
