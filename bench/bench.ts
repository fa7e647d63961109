// One benchmark run on the real harness, start to finish: fleet → create N Kymas → all Ready (convergence, API cost)
// → E runtime-Kyma edits (change latency) → idle window (requests/s, flapping) → the KCP write ceiling → resources.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kyma } from '../shared/domain/kyma.ts';
import { remoteKymaRef } from '../shared/domain/runtime-scope.ts';
import { API_VERSION, KCP_NAMESPACE } from '../shared/domain/vocabulary.ts';
import { LocalApiServerSource } from '../shared/eventing/index.ts';
import { readConfig } from '../shared/runtime/config.ts';
import { createLogger } from '../shared/runtime/logger.ts';
import { startLocalRunner } from '../shared/runner/local-runner.ts';
import type { BenchSettings } from './args.ts';
import { costSnapshot, costBetween, type CostSnapshot } from './cost.ts';
import { createKymas, EDIT_MODULE, kymaName, startFleet, type Fleet } from './fleet.ts';
import { ReadinessTracker } from './readiness.ts';
import { resultOf, type BenchResult } from './result.ts';
import { changedBetween, resourceVersions } from './snapshot.ts';
import { measureWriteCeiling } from './write-ceiling.ts';

const CREATE_PARALLEL = 16;

export async function runBench(settings: BenchSettings, say: (line: string) => void): Promise<BenchResult> {
  const fleet = await startFleet(settings, say);
  try {
    return await measure(fleet, settings, say);
  } finally {
    await fleet.plane.stop();
  }
}

async function measure(fleet: Fleet, settings: BenchSettings, say: (line: string) => void): Promise<BenchResult> {
  const config = readConfig({ LIFECYCLE_OCI_REGISTRY: `http://${fleet.registryHost}`, LOG_LEVEL: process.env.LOG_LEVEL ?? 'error' });
  const log = createLogger('bench', config.logLevel);
  const runner = await startLocalRunner({ kcp: fleet.plane.kcp.kubeConfig(), config, log, resyncAtStart: false });
  const edited = new Set<string>();
  const tracker = new ReadinessTracker((name) => (edited.has(name) ? [...fleet.modules, EDIT_MODULE] : fleet.modules));
  const watch = new LocalApiServerSource({
    kubeConfig: fleet.plane.kcp.kubeConfig(), log, resources: [{ apiVersion: API_VERSION, kind: 'Kyma', namespace: KCP_NAMESPACE }],
    sink: async (event) => { if (event.data) tracker.observe(event.data as Kyma, performance.now()); },
  });
  await watch.start();
  await watch.ready();
  try {
    const created = new Map<string, number>();
    const before = await costSnapshot(fleet);
    const started = performance.now();
    say(`creating ${settings.kymas} Kymas × ${fleet.modules.length} modules on ${settings.runtimes} runtime API servers`);
    await createKymas(fleet, settings.kymas, CREATE_PARALLEL, (name, at) => created.set(name, at));
    const installs = () => `, module installs Ready: ${tracker.moduleReady.size}/${settings.kymas * fleet.modules.length}`;
    const complete = await untilAll(() => tracker.kymaReady.size, settings.kymas, 'Kymas Ready', settings.timeoutSeconds, say, installs)
      .then(() => true, (error: unknown) => { say(`${error instanceof Error ? error.message : String(error)} — a bounded run: reporting what converged`); return false; });
    const converged = performance.now();
    const afterConvergence = await costSnapshot(fleet);
    const convergenceCost = costBetween(before, afterConvergence);
    if (!complete) {
      const ceiling = await measureWriteCeiling(fleet.kcp, 'bench-ceiling', { seconds: settings.ceilingSeconds, concurrency: 32 });
      return await resultOf({ settings, fleet, config, created, tracker, started, converged, edits: [], ceiling, convergenceCost, timedOut: true, broker: runner.broker.stats() });
    }
    const edits = await editKymas(fleet, settings, edited, tracker, say);
    await runner.broker.idle();
    const quiet = await resourceVersions(fleet.kcp, fleet.runtimes, [...fleet.modules, ...(settings.edits ? [EDIT_MODULE] : [])]);
    const idleFrom = await costSnapshot(fleet);
    say(`idle window: ${settings.idleSeconds} s`);
    await sleep(settings.idleSeconds * 1000);
    const idleTo = await costSnapshot(fleet);
    const flapped = changedBetween(quiet, await resourceVersions(fleet.kcp, fleet.runtimes, [...fleet.modules, ...(settings.edits ? [EDIT_MODULE] : [])]));
    say(`measuring the KCP write ceiling for ${settings.ceilingSeconds} s`);
    const ceiling = await measureWriteCeiling(fleet.kcp, 'bench-ceiling', { seconds: settings.ceilingSeconds, concurrency: 32 });
    return await resultOf({
      settings, fleet, config, created, tracker, started, converged, edits, flapped, ceiling,
      convergenceCost, idleCost: costBetween(idleFrom, idleTo), timedOut: false, broker: runner.broker.stats(),
    });
  } finally {
    await watch.stop();
    await runner.stop();
  }
}

/** E runtime-Kyma edits (add the edit module on E Kymas), each timed from the edit to that module Ready. */
async function editKymas(fleet: Fleet, settings: BenchSettings, edited: Set<string>, tracker: ReadinessTracker, say: (line: string) => void): Promise<number[]> {
  if (!settings.edits) return [];
  say(`${settings.edits} runtime-Kyma edits (add ${EDIT_MODULE})`);
  const at = new Map<string, number>();
  for (let i = 0; i < settings.edits; i++) {
    const name = kymaName(Math.floor((i * settings.kymas) / settings.edits));
    const runtime = fleet.runtimes[Number(name.slice(5)) % fleet.runtimes.length];
    edited.add(name);
    at.set(name, performance.now());
    await runtime?.mergePatch(remoteKymaRef({ namespace: name, shared: true }), { spec: { modules: [...fleet.modules, EDIT_MODULE].map((m) => ({ name: m })) } });
  }
  await untilAll(() => [...at.keys()].filter((k) => tracker.moduleReady.has(`${k}/${EDIT_MODULE}`)).length, at.size, 'edits Ready', settings.timeoutSeconds, say);
  return [...at.entries()].map(([k, t]) => (tracker.moduleReady.get(`${k}/${EDIT_MODULE}`) ?? t) - t);
}

async function untilAll(count: () => number, total: number, what: string, timeoutSeconds: number, say: (line: string) => void, detail = () => ''): Promise<void> {
  const deadline = performance.now() + timeoutSeconds * 1000;
  let lastSaid = 0;
  while (count() < total) {
    if (performance.now() > deadline) throw new Error(`${what}: ${count()} of ${total} within ${timeoutSeconds} s${detail()}`);
    if (performance.now() - lastSaid > 10_000) { say(`${what}: ${count()}/${total}${detail()}`); lastSaid = performance.now(); }
    await sleep(200);
  }
  say(`${what}: ${total}/${total}`);
}

export type { CostSnapshot };
