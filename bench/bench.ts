// One benchmark run on the real harness, start to finish: fleet → create N Kymas → all Ready (convergence, API cost)
// (B edits while it converges) → E runtime-Kyma edits (change latency) → idle window (requests/s, flapping) → the KCP write ceiling → resources.
import { setTimeout as sleep } from 'node:timers/promises';
import type { Kyma } from '../shared/core/kyma.ts';
import type { Manifest } from '../shared/core/manifest.ts';
import { API_VERSION, KCP_NAMESPACE, LABEL } from '../shared/core/vocabulary.ts';
import { LocalApiServerSource } from '../local/eventing/index.ts';
import { readConfig } from '../shared/host/config.ts';
import { createLogger } from '../shared/host/logger.ts';
import { callTally, countRequests, requestTally } from '../shared/kube/request-tally.ts';
import { requestsSince } from './by-function.ts';
import { lifecycleEnvironment, type BenchSettings } from './args.ts';
import { costSnapshot as snapshotOf, costBetween, type CostSnapshot } from './cost.ts';
import { readEndState } from './end-state.ts';
import { startEngine } from './engine.ts';
import { busyEdits, editKymas, idleEditTargets, untilSecond } from './edits.ts';
import { createKymas, EDIT_MODULE, startFleet, type Fleet } from './fleet.ts';
import { ReadinessTracker } from './readiness.ts';
import { measureRelease } from './release.ts';
import { selfFootprint } from './process-usage.ts';
import { memoryMark, type MemoryMark } from './memory-marks.ts';
import { driftCheckCounts, driftChecksBetween } from './idle-result.ts';
import { currentCommit, resultOf, type BenchResult } from './result.ts';
import { changedBetween, resourceVersions } from './snapshot.ts';
import { untilAll } from './wait.ts';
import { measureWriteCeiling } from './write-ceiling.ts';

const CREATE_PARALLEL = 16;
/** How long the idle window waits for the broker to have no work left after the edits. */
const SETTLE_LIMIT_MS = 120_000;
/** How long the bench waits for the functions to stop before it stops the control plane under them. */
const STOP_LIMIT_MS = 30_000;

export async function runBench(settings: BenchSettings, say: (line: string) => void): Promise<BenchResult> {
  const fleet = await startFleet(settings, say);
  try {
    return await measure(fleet, settings, say);
  } finally {
    await fleet.plane.stop();
  }
}

async function measure(fleet: Fleet, settings: BenchSettings, say: (line: string) => void): Promise<BenchResult> {
  const code = await currentCommit();
  const settingsEnv = {
    ...lifecycleEnvironment(),
    LIFECYCLE_OCI_REGISTRY: `http://${fleet.registryHost}`,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'error',
    // Function processes (--engine knative) count their requests by function, as this process does its own.
    LIFECYCLE_COUNT_REQUESTS: 'true',
  };
  const config = readConfig(settingsEnv);
  const log = createLogger('bench', config.logLevel);
  const processEnv = Object.fromEntries(
    Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const engine = await startEngine(settings, fleet, config, { ...processEnv, ...settingsEnv }, log, say);
  const costSnapshot = (f: Fleet) => snapshotOf(f, engine.processes());
  const edited = new Set<string>();
  const tracker = new ReadinessTracker(
    (name) => (edited.has(name) ? [...fleet.modules, EDIT_MODULE] : fleet.modules),
    [EDIT_MODULE],
  );
  const watch = new LocalApiServerSource({
    kubeConfig: fleet.plane.kcp.kubeConfig(),
    log,
    resources: [
      { apiVersion: API_VERSION, kind: 'Kyma', namespace: KCP_NAMESPACE },
      // The edited module's Manifests only (a few, for the edits' hops).
      {
        apiVersion: API_VERSION,
        kind: 'Manifest',
        namespace: KCP_NAMESPACE,
        labelSelector: `${LABEL.moduleName}=${EDIT_MODULE}`,
      },
    ],
    sink: async (event) => {
      const seen = event.data as (Kyma & Manifest) | undefined;
      if (seen?.kind === 'Manifest') tracker.observeManifest(seen, performance.now());
      else if (seen) tracker.observe(seen, performance.now());
    },
  });
  await watch.start();
  await watch.ready();
  try {
    const created = new Map<string, number>();
    const before = await costSnapshot(fleet);
    countRequests(true);
    const countedBefore = await engine.requests();
    const started = performance.now();
    say(
      `creating ${settings.kymas} Kymas × ${fleet.modules.length} modules on ${settings.runtimes} runtime API servers`,
    );
    const busy = busyEdits(fleet, settings, edited, tracker, say);
    busy.catch(() => undefined); // a bounded run may end before them: reported as none
    await createKymas(fleet, settings.kymas, CREATE_PARALLEL, (name, at) => created.set(name, at));
    const installs = () =>
      `, module installs Ready: ${tracker.moduleReady.size}/${settings.kymas * fleet.modules.length}`;
    const complete = await untilAll(
      () => tracker.kymaReady.size,
      settings.kymas,
      'Kymas Ready',
      settings.timeoutSeconds,
      say,
      installs,
    ).then(
      () => true,
      (error: unknown) => {
        say(`${error instanceof Error ? error.message : String(error)} — a bounded run: reporting what converged`);
        return false;
      },
    );
    const converged = performance.now();
    const afterConvergence = await costSnapshot(fleet);
    const convergenceCost = costBetween(before, afterConvergence);
    const requests = [...requestTally(), ...requestsSince(await engine.requests(), countedBefore)];
    const callsByEvent = callTally();
    countRequests(false);
    const footprint = await selfFootprint();
    if (!complete) {
      const ceiling = await measureWriteCeiling(fleet.kcp, 'bench-ceiling', {
        seconds: settings.ceilingSeconds,
        concurrency: 32,
      });
      return await resultOf({
        code,
        settings,
        fleet,
        config,
        created,
        tracker,
        started,
        converged,
        edits: [],
        busyEdits: [],
        ceiling,
        convergenceCost,
        requests,
        callsByEvent,
        footprint,
        timedOut: true,
        ...(await engine.events()),
      });
    }
    const duringConvergence = await busy;
    if (settings.edits) say(`${settings.edits} runtime-Kyma edits (add ${EDIT_MODULE})`);
    if (settings.edits && settings.editsAtSecond >= 0) await sleep(untilSecond(settings.editsAtSecond, Date.now()));
    const targets = idleEditTargets(settings);
    const gapMs = targets.length ? (settings.editsOverSeconds * 1000) / targets.length : 0;
    // What the edits cost is counted in this process: the local runner's functions only.
    const editsFrom = targets.length && settings.engine === 'local' ? await costSnapshot(fleet) : undefined;
    countRequests(editsFrom !== undefined);
    const edits = await editKymas(fleet, targets, edited, tracker, settings.timeoutSeconds, say, 'edits Ready', gapMs);
    const editCounts = editsFrom
      ? { requests: requestTally(), calls: callTally(), cost: costBetween(editsFrom, await costSnapshot(fleet)) }
      : undefined;
    countRequests(false);
    const memory: MemoryMark[] = [memoryMark('the edits')];
    // At thousands of Kymas the drift checks never let the broker run dry: wait a bounded time, then measure anyway.
    const settled = await engine.settled(SETTLE_LIMIT_MS);
    if (!settled)
      say(
        `the broker still had work ${SETTLE_LIMIT_MS / 1000} s after the edits (background drift checks): the idle window starts anyway`,
      );
    memory.push(memoryMark('settling'));
    const quiet = await resourceVersions(fleet.kcp, fleet.runtimes, [
      ...fleet.modules,
      ...(settings.edits + settings.busyEdits ? [EDIT_MODULE] : []),
    ]);
    memory.push(memoryMark("the bench's read of every resourceVersion"));
    const idleFrom = await costSnapshot(fleet);
    const checksFrom = await driftCheckCounts();
    say(`idle window: ${settings.idleSeconds} s`);
    await sleep(settings.idleSeconds * 1000);
    const idleTo = await costSnapshot(fleet);
    memory.push(memoryMark('the idle window'));
    const checksTo = await driftCheckCounts();
    const endState = await readEndState(fleet.kcp);
    const flapped = changedBetween(
      quiet,
      await resourceVersions(fleet.kcp, fleet.runtimes, [
        ...fleet.modules,
        ...(settings.edits + settings.busyEdits ? [EDIT_MODULE] : []),
      ]),
    );
    const release = settings.release
      ? await measureRelease(fleet, settings.kymas, tracker, config, settings.timeoutSeconds, say)
      : undefined;
    say(`measuring the KCP write ceiling for ${settings.ceilingSeconds} s`);
    const ceiling = await measureWriteCeiling(fleet.kcp, 'bench-ceiling', {
      seconds: settings.ceilingSeconds,
      concurrency: 32,
    });
    return await resultOf({
      code,
      settings,
      fleet,
      config,
      created,
      tracker,
      started,
      converged,
      edits,
      editCounts,
      busyEdits: duringConvergence,
      flapped,
      ceiling,
      convergenceCost,
      requests,
      callsByEvent,
      footprint,
      idleCost: costBetween(idleFrom, idleTo),
      memory,
      idleSettled: settled,
      idleDriftChecks: settings.engine === 'local' ? driftChecksBetween(checksFrom, checksTo) : undefined,
      release,
      timedOut: false,
      endState,
      ...(await engine.events()),
    });
  } finally {
    await watch.stop();
    // Stopping lets the calls in flight finish and, at thousands of Kymas, the queued drift checks too: bounded, as
    // the control plane's stop then ends whatever is left.
    await Promise.race([engine.stop(), sleep(STOP_LIMIT_MS)]);
  }
}

export type { CostSnapshot };
