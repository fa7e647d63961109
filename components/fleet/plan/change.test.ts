import { describe, expect, it } from 'vitest';
import { aTemplate } from '../../../test/builders.ts';
import type { ModuleReleaseMeta, ModuleTemplate } from '../../../shared/core/templates.ts';
import { changedCatalog, changedModules, changeOf, describeChange, type Catalog } from './change.ts';

const meta: ModuleReleaseMeta = {
  apiVersion: 'operator.kyma-project.io/v1beta2',
  kind: 'ModuleReleaseMeta',
  metadata: { name: 'papa', namespace: 'kcp-system' },
  spec: {
    moduleName: 'papa',
    ocmComponentName: 'kyma-project.io/module/papa',
    channels: [
      { channel: 'regular', version: '1.0.0' },
      { channel: 'fast', version: '1.1.0' },
    ],
  },
};
const template = (version: string, labels: Record<string, string> = {}): ModuleTemplate =>
  aTemplate({ module: 'papa', version, labels });
const catalog: Catalog = { releaseMetas: [meta], templates: [template('1.0.0'), template('1.1.0')] };

describe('the change a plan previews', () => {
  it('--set-channel moves a channel of the stored ModuleReleaseMeta and adds a new one; nothing else changes', () => {
    const change = changeOf(catalog, {
      releaseMeta: 'papa',
      setChannels: [
        { channel: 'regular', version: '1.1.0' },
        { channel: 'experimental', version: '2.0.0' },
      ],
    });
    expect(describeChange(change)).toBe('ModuleReleaseMeta papa: regular=1.1.0 fast=1.1.0 experimental=2.0.0');
    const after = changedCatalog(catalog, change);
    expect(after.releaseMetas).toHaveLength(1);
    expect(after.releaseMetas[0]?.spec?.ocmComponentName).toBe('kyma-project.io/module/papa');
    expect(after.templates).toBe(catalog.templates);
    expect(catalog.releaseMetas[0]?.spec?.channels?.[0]?.version).toBe('1.0.0'); // the stored one is untouched
    expect(changedModules(change)).toEqual(['papa']);
  });

  it('a file: a ModuleReleaseMeta or a ModuleTemplate in place of the stored one of its name', () => {
    const internal = template('1.0.0', { 'operator.kyma-project.io/internal': 'true' });
    const change = changeOf(catalog, { document: internal, file: 't.yaml' });
    expect(describeChange(change)).toBe('ModuleTemplate papa-1.0.0');
    expect(changedModules(change)).toEqual(['papa']);
    expect(changedCatalog(catalog, change).templates.find((t) => t.metadata.name === 'papa-1.0.0')).toBe(internal);
    expect(
      changedCatalog(
        catalog,
        changeOf(catalog, { document: { ...meta, spec: { ...meta.spec, channels: [] } }, file: 'm.yaml' }),
      ).releaseMetas[0]?.spec?.channels,
    ).toEqual([]);
  });

  it.each([
    [
      { releaseMeta: 'nosuch', setChannels: [] },
      '--release-meta nosuch: no such ModuleReleaseMeta in the namespace (a file path must exist)',
    ],
    [
      { document: { kind: 'Kyma', metadata: { name: 'k' } }, file: 'k.yaml' },
      'k.yaml: kind Kyma: expected ModuleReleaseMeta or ModuleTemplate',
    ],
    [
      { document: 'just text', file: 'x.yaml' },
      'x.yaml: expected one ModuleReleaseMeta or ModuleTemplate with metadata.name',
    ],
  ])('refuses %j', (request, message) => {
    expect(() => changeOf(catalog, request)).toThrow(message);
  });
});
