import { describe, expect, it } from 'vitest';
import { defaultCrs, lifecycleObjects, runtimeLifecycleCrds } from './rollout-floor-lifecycle.ts';

describe('what every lifecycle manager writes on a runtime (the floor with --lifecycle)', () => {
  it('takes the three lifecycle CRDs from manifests/crds, conversion None, labelled for the runtime', async () => {
    const crds = await runtimeLifecycleCrds();
    expect(crds.map((c) => c.metadata?.name)).toEqual([
      'kymas.operator.kyma-project.io',
      'moduletemplates.operator.kyma-project.io',
      'modulereleasemetas.operator.kyma-project.io',
    ]);
    for (const crd of crds) {
      expect((crd as { spec: { conversion: unknown } }).spec.conversion).toEqual({ strategy: 'None' });
      expect((crd.metadata as { labels?: unknown }).labels).toEqual({ 'operator.kyma-project.io/managed-by': 'kyma' });
    }
  });

  it('holds a ModuleTemplate and a ModuleReleaseMeta per module and one runtime Kyma listing them all', () => {
    const objects = lifecycleObjects(['alpha', 'bravo']);
    expect(objects.map((o) => `${o.kind}/${o.metadata?.name}`)).toEqual([
      'ModuleTemplate/alpha-1.0.0',
      'ModuleReleaseMeta/alpha',
      'ModuleTemplate/bravo-1.0.0',
      'ModuleReleaseMeta/bravo',
      'Kyma/default',
    ]);
    expect(objects.every((o) => o.metadata?.namespace === 'kyma-system')).toBe(true);
    expect((objects.at(-1) as { spec: unknown }).spec).toEqual({
      channel: 'regular',
      modules: [{ name: 'alpha' }, { name: 'bravo' }],
    });
  });

  it("gives each module's default CR a name of its own in kyma-system", () => {
    expect(defaultCrs(['alpha', 'bravo']).map((o) => [o.apiVersion, o.kind, o.metadata?.name])).toEqual([
      ['alpha.modules.kyma-project.io/v1alpha1', 'Alpha', 'alpha-default'],
      ['bravo.modules.kyma-project.io/v1alpha1', 'Bravo', 'bravo-default'],
    ]);
  });
});
