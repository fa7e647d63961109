import { describe, expect, it } from 'vitest';
import { aKyma, aTemplate } from '../../test/builders.ts';
import { LABEL } from '../../shared/core/vocabulary.ts';
import type { Kyma } from '../../shared/core/kyma.ts';
import type { ModuleReleaseMeta, ModuleTemplate } from '../../shared/core/templates.ts';
import { catalogFor, catalogNeverPushed } from './catalog.ts';

const kyma = (labels: Record<string, string> = {}): Kyma => aKyma({ labels });
const template = (
  module: string,
  version: string,
  labels: Record<string, string> = {},
  mandatory = false,
): ModuleTemplate =>
  // Without the module-name label aTemplate sets: the copies carry the template's labels.
  aTemplate({ module, version, labels: { [LABEL.moduleName]: undefined, ...labels }, spec: { mandatory } });
const meta = (module: string, channels: [string, string][], extra: object = {}): ModuleReleaseMeta => ({
  apiVersion: 'v',
  kind: 'ModuleReleaseMeta',
  metadata: { name: module, namespace: 'kcp-system' },
  spec: {
    moduleName: module,
    ocmComponentName: `x.io/${module}`,
    channels: channels.map(([channel, version]) => ({ channel, version })),
    ...extra,
  },
});
const names = (c: ReturnType<typeof catalogFor>) => ({
  templates: c.templates.map((t) => t.metadata.name),
  metas: c.metas.map((m) => `${m.metadata.name}:${(m.spec?.channels ?? []).map((x) => x.channel).join('+')}`),
});

describe('catalogFor (what a Kyma may see on its runtime)', () => {
  const templates = [
    template('keda', '1.0.0'),
    template('keda', '2.0.0', { 'operator.kyma-project.io/beta': 'true' }),
    template('base', '1.0.0', {}, true),
  ];
  const metas = [
    meta('keda', [
      ['regular', '1.0.0'],
      ['fast', '2.0.0'],
    ]),
    meta('base', [], { mandatory: { version: '1.0.0' } }),
  ];

  it('drops beta channels and templates for a plain Kyma, and mandatory modules always', () => {
    expect(names(catalogFor(kyma(), templates, metas, []))).toEqual({
      templates: ['keda-1.0.0'],
      metas: ['keda:regular'],
    });
  });

  it('shows beta for a beta Kyma', () => {
    expect(names(catalogFor(kyma({ 'operator.kyma-project.io/beta': 'true' }), templates, metas, []))).toEqual({
      templates: ['keda-1.0.0', 'keda-2.0.0'],
      metas: ['keda:regular+fast'],
    });
  });

  it('drops a release meta without any visible channel', () => {
    expect(
      names(catalogFor(kyma(), [templates[1] as ModuleTemplate], [meta('keda', [['fast', '2.0.0']])], [])),
    ).toEqual({ templates: [], metas: [] });
  });

  it.each([
    [{ 'kyma-project.io/global-account-id': 'ga-1' }, true],
    [{ 'kyma-project.io/global-account-id': 'other' }, false],
    [{}, false],
  ])('shows a restricted module (listed, kymaSelector) only to matching Kymas: %j → %s', (labels, shown) => {
    const restricted = meta('secret', [['regular', '1.0.0']], {
      kymaSelector: { matchLabels: { 'kyma-project.io/global-account-id': 'ga-1' } },
    });
    expect(catalogFor(kyma(labels), [template('secret', '1.0.0')], [restricted], ['secret']).metas.length).toBe(
      shown ? 1 : 0,
    );
  });

  it('shows a release meta with a kymaSelector to nobody unless its module is restricted, and a restricted one without a selector to nobody (upstream)', () => {
    const selected = meta('secret', [['regular', '1.0.0']], {
      kymaSelector: { matchLabels: { 'kyma-project.io/global-account-id': 'ga-1' } },
    });
    expect(
      catalogFor(kyma({ 'kyma-project.io/global-account-id': 'ga-1' }), [template('secret', '1.0.0')], [selected], [])
        .metas,
    ).toEqual([]);
    expect(
      catalogFor(kyma(), [template('secret', '1.0.0')], [meta('secret', [['regular', '1.0.0']])], ['secret']).metas,
    ).toEqual([]);
  });

  it('puts copies in kyma-system with managed-by=kyma', () => {
    const [copy] = catalogFor(kyma(), templates, metas, []).templates;
    expect(copy?.metadata).toEqual({
      name: 'keda-1.0.0',
      namespace: 'kyma-system',
      labels: { 'operator.kyma-project.io/managed-by': 'kyma' },
    });
  });
});

describe('catalogNeverPushed (ADR 96)', () => {
  const withConditions = (types: string[]): Kyma => ({
    ...kyma(),
    status: {
      state: 'Processing',
      conditions: types.map((type) => ({ type, status: 'False', reason: 'Processing', message: '' })),
    },
  });
  it('is a Kyma without status or without a ModuleCatalog condition', () => {
    expect(catalogNeverPushed(kyma())).toBe(true);
    expect(catalogNeverPushed(withConditions(['CRDsSync', 'Modules']))).toBe(true);
  });
  it("is not a Kyma whose catalog any manager pushed, even one that failed (upstream's condition counts)", () => {
    expect(catalogNeverPushed(withConditions(['ModuleCatalog']))).toBe(false);
    expect(catalogNeverPushed(withConditions(['Modules', 'ModuleCatalog']))).toBe(false);
  });
});
