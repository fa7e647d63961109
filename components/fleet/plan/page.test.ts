import { describe, expect, it } from 'vitest';
import { planPage } from './page.ts';
import type { PlanReport } from './report.ts';
import { planText } from './text.ts';

const report: PlanReport = {
  change: 'ModuleReleaseMeta papa: regular=2.0.0',
  namespace: 'kcp-system',
  kymas: 3,
  unchanged: 1,
  dryRuns: 1,
  seconds: 0.4,
  rows: [
    {
      kyma: 'k1',
      module: 'papa',
      outcome: 'upgrade',
      from: '1.0.0',
      to: '2.0.0',
      message: '',
      runtime: {
        created: ['ConfigMap kyma-system/new'],
        changed: [],
        unchanged: 3,
        pruned: ['ConfigMap kyma-system/old'],
        blockedBy: [],
        deletedWithCrds: [],
        keptCrds: [],
      },
    },
    {
      kyma: 'k2',
      module: 'papa',
      outcome: 'upgrade',
      from: '1.0.0',
      to: '2.0.0',
      message: '',
      runtime: { sameAs: 'k1' },
    },
    {
      kyma: 'k3',
      module: 'papa',
      outcome: 'refused',
      from: '1.0.0',
      to: '1.0.0',
      message: 'ModuleTemplate <b>x</b> is internal',
      runtime: {
        created: [],
        changed: [],
        unchanged: 0,
        pruned: ['Deployment kyma-system/papa-manager'],
        blockedBy: ['Papa team/mine'],
        deletedWithCrds: [],
        keptCrds: [],
      },
    },
    {
      kyma: 'k4',
      module: 'papa',
      outcome: 'upgrade',
      from: '1.0.0',
      to: '2.0.0',
      message: '',
      runtime: {
        created: [],
        changed: [],
        unchanged: 2,
        pruned: ['CustomResourceDefinition widgets.example.com'],
        blockedBy: [],
        deletedWithCrds: ['Widget team/w1'],
        keptCrds: [],
      },
    },
    {
      kyma: 'k5',
      module: 'papa',
      outcome: 'upgrade',
      from: '1.0.0',
      to: '2.0.0',
      message: '',
      runtime: {
        created: [],
        changed: [],
        unchanged: 2,
        pruned: [],
        blockedBy: [],
        deletedWithCrds: [],
        keptCrds: ['CustomResourceDefinition gadgets.example.com kept: used by Gadget team/g1'],
      },
    },
  ],
};

describe('plan output', () => {
  it("text: counts, one row per Kyma and module, each dry-run's objects below", () => {
    const lines = planText(report).split('\n');
    expect(lines[1]).toBe('Kymas using it: 3, unchanged: 1; modules: upgrade 4, refused 1; runtime dry-runs: 1; 0.4 s');
    expect(lines.some((l) => /^k4\s+papa\s+upgrade\s+1\.0\.0\s+2\.0\.0\s+\+0 ~0 -1 deletes 1 CR$/.test(l))).toBe(true);
    expect(lines).toContain('    ! Widget team/w1 deleted with its CRD');
    // A dropped CRD that custom resources use is kept unless the module allows it to go (issue 34).
    expect(lines.some((l) => /^k5\s+papa\s+upgrade\s+1\.0\.0\s+2\.0\.0\s+\+0 ~0 -0 keeps 1 CRD$/.test(l))).toBe(true);
    expect(lines).toContain('    ! CustomResourceDefinition gadgets.example.com kept: used by Gadget team/g1');
    expect(lines).toContain('k2    papa    upgrade  1.0.0  2.0.0  same as k1');
    expect(
      lines.some((l) =>
        /^k3\s+papa\s+refused\s+1\.0\.0\s+1\.0\.0\s+\+0 ~0 -1 blocked by 1 CR\s+ModuleTemplate <b>x<\/b> is internal$/.test(
          l,
        ),
      ),
    ).toBe(true);
    expect(lines).toEqual(
      expect.arrayContaining([
        'k1 papa:',
        '    + ConfigMap kyma-system/new',
        '    - ConfigMap kyma-system/old',
        '    ! removal blocked by Papa team/mine',
      ]),
    );
  });

  it('HTML: every value escaped, the form keeps what was asked', () => {
    const html = planPage(
      { releaseMeta: 'papa"><script>', setChannels: ['regular=2.0.0'], kymas: [], samplePerGroup: '1' },
      { report, cached: true },
    );
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<b>x</b>');
    expect(html).toContain('ModuleTemplate &#60;b&#62;x&#60;/b&#62; is internal');
    expect(html).toContain('value="papa&#34;&#62;&#60;script&#62;"');
    expect(html).toContain('<li>! blocked by Papa team/mine</li>');
    expect(html).toContain('(cached)');
    expect(
      planPage({ releaseMeta: '', setChannels: [], kymas: [], samplePerGroup: '1' }, { error: 'no <such>' }),
    ).toContain('no &#60;such&#62;');
  });
});
