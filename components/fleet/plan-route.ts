// The fleet component's plan view (issue 25, ADR 39): GET /plan (HTML) and /api/plan (JSON) run tools/plan for a
// stored ModuleReleaseMeta with channels set, bounded: one plan at a time (else 429), a few dry-runs per group by
// default, and an answer reused for a minute while the watch caches have not moved.
import { canonicalJson } from '../../shared/core/canonical.ts';
import type { Config } from '../../shared/host/config.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { API_VERSION } from '../../shared/core/vocabulary.ts';
import { InputError } from '../../shared/host/input-rules.ts';
import { parsePlanArgs } from './plan/args.ts';
import { planPage, type PlanForm } from './plan/page.ts';
import type { PlanReport } from './plan/report.ts';

const REUSE_MS = 60_000;
const DEFAULT_SAMPLES = '1';
type Answer = { status: number; type: string; body: string };

export function planRoute(kcp: KubeClient, namespace: string, config: Config | undefined) {
  let cached: { key: string; at: number; report: PlanReport } | undefined;
  let running: string | undefined;
  const revisions = () =>
    ['Kyma', 'Manifest', 'ModuleReleaseMeta'].map((k) => kcp.cachedRevision(API_VERSION, k, namespace)).join('/');

  return async (url: URL): Promise<Answer> => {
    const html = url.pathname === '/plan';
    const q = url.searchParams;
    const list = (name: string) =>
      q
        .getAll(name)
        .flatMap((v) => v.split(','))
        .map((v) => v.trim())
        .filter(Boolean);
    const form: PlanForm = {
      releaseMeta: q.get('releaseMeta') ?? '',
      setChannels: list('setChannel'),
      kymas: list('kyma'),
      samplePerGroup: q.get('samplePerGroup') || DEFAULT_SAMPLES,
    };
    const answer = (
      status: number,
      body: { report: PlanReport; cached: boolean } | { error: string } | undefined,
    ): Answer =>
      html
        ? { status, type: 'text/html; charset=utf-8', body: planPage(form, body) }
        : {
            status,
            type: 'application/json',
            body: `${JSON.stringify(body && 'report' in body ? { ...body.report, cached: body.cached } : (body ?? {}))}\n`,
          };
    if (html && !form.releaseMeta) return answer(200, undefined);
    if (!config)
      return answer(501, {
        error: 'this fleet component was started without the configuration a plan needs (the module registry)',
      });
    let args;
    try {
      if (/[/.]/.test(form.releaseMeta))
        throw new InputError('releaseMeta: the name of a stored ModuleReleaseMeta (files are for the CLI)');
      args = parsePlanArgs([
        '--namespace',
        namespace,
        '--release-meta',
        form.releaseMeta,
        ...form.setChannels.flatMap((s) => ['--set-channel', s]),
        ...form.kymas.flatMap((k) => ['--kyma', k]),
        '--sample-per-group',
        form.samplePerGroup,
        '--concurrency',
        '4',
      ]);
    } catch (error) {
      return answer(400, { error: (error as Error).message });
    }
    const key = `${canonicalJson(form)}@${revisions()}`;
    if (cached?.key === key && Date.now() - cached.at < REUSE_MS)
      return answer(200, { report: cached.report, cached: true });
    if (running) return answer(429, { error: 'another plan is running: try again in a moment' });
    running = key;
    try {
      const [{ planDeps }, { plan }] = await Promise.all([import('./plan/deps.ts'), import('./plan/plan.ts')]);
      const deps = await planDeps(kcp, config, () => undefined);
      const report = await plan(deps, {
        namespace,
        change: { releaseMeta: form.releaseMeta, setChannels: args.setChannels },
        kymas: args.kymas,
        samplePerGroup: args.samplePerGroup,
        concurrency: args.concurrency,
      });
      cached = { key, at: Date.now(), report };
      return answer(200, { report, cached: false });
    } catch (error) {
      return answer(error instanceof InputError ? 400 : 503, { error: (error as Error).message });
    } finally {
      running = undefined;
    }
  };
}
