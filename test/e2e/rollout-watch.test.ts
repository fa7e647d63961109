// A module's rollout watched in the call (ADR 61): apply-remote watches the workload it applied, so a module whose
// rollout settles within the window is written Ready (or Error) once, never Processing first and retried; a watch
// whose window ends answers the workload as last seen. Real KCP and runtime with real controllers rolling out.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../shared/core/manifest.ts';
import { LABEL } from '../../shared/core/vocabulary.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import { countRequests, requestTally } from '../../shared/kube/request-tally.ts';
import { moduleReadiness } from '../../shared/render/readiness.ts';
import type { RuntimeObject } from '../../shared/render/render.ts';
import { RolloutWatch } from '../../functions/apply-remote/rollout-watch.ts';
import { removeModuleLeftovers } from '../faults/conflicts-helpers.ts';
import { publishModule } from './removal-helpers.ts';
import {
  applyKyma,
  connectRuntime,
  deleteLeftoverKymas,
  eventually,
  kymaInState,
  startWorld,
  type World,
} from './world.ts';

const KYMA = 'rollout-watch';
const RUNTIME = 0;
const MODULES = ['watched-good', 'watched-broken'];
const SHARED = ['watched-first', 'watched-second', 'watched-earlier'];
const LATE = ['watched-stuck', 'watched-late'];
let world: World;

/** The states of the Kyma's Manifest of `module` as the KCP's events showed them, in order, repeats dropped. */
function statesOf(module: string): string[] {
  const states: string[] = [];
  for (const event of world.events) {
    const manifest = event.data as Partial<Manifest> | undefined;
    const labels = manifest?.metadata?.labels ?? {};
    if (manifest?.kind !== 'Manifest' || labels[LABEL.kymaName] !== KYMA) continue;
    if (labels[LABEL.moduleName] !== module) continue;
    const state = manifest.status?.state;
    if (state && states.at(-1) !== state) states.push(state);
  }
  return states;
}

beforeAll(async () => {
  // A window far longer than any rollout here, so that the assertions do not hang on the machine's speed (30 s was
  // not, once, on a loaded 2-core CI machine: the good module's rollout took longer and it was written Processing).
  world = await startWorld({ LIFECYCLE_ROLLOUT_WATCH_SECONDS: '60' });
  await publishModule(world, 'watched-good', ['1.0.0']);
  await publishModule(world, 'watched-broken', ['1.0.0'], { unschedulable: true });
  await connectRuntime(world, KYMA, RUNTIME);
});

afterAll(async () => {
  if (world) await deleteLeftoverKymas(world);
  const runtime = world?.runtimes[RUNTIME];
  if (runtime)
    for (const module of [...MODULES, ...SHARED, ...LATE, 'watched-window'])
      await removeModuleLeftovers(runtime, module);
  await world?.runner.stop();
});

const entry = (name: string) => (k: { status?: { modules?: { name: string; state?: string }[] } }) =>
  k.status?.modules?.find((m) => m.name === name)?.state;

describe("a module's rollout watched in the call", () => {
  it('is written Ready once when it rolls out in the window, and Error once when it stops progressing', async () => {
    await applyKyma(world, KYMA, { channel: 'regular', modules: MODULES.map((name) => ({ name })) });
    await kymaInState(
      world,
      KYMA,
      'Error',
      (k) => entry('watched-good')(k) === 'Ready' && entry('watched-broken')(k) === 'Error',
    );
    expect(statesOf('watched-good')).toEqual(['Ready']);
    // The Deployment's progress deadline (5 s) passes within the window: Error at once, no Processing first.
    expect(statesOf('watched-broken')).toEqual(['Error']);
  });

  it('answers the workload as last seen when the window ends first', async () => {
    const runtime = world.runtimes[RUNTIME];
    if (!runtime) throw new Error('no runtime');
    const applied = await runtime.apply<RuntimeObject>(deployment('watched-window', false), 'rollout-watch-test');
    const seen = await new RolloutWatch(1_500).settle(runtime, [applied]);
    expect(moduleReadiness(seen).state).toBe('Processing');
    await runtime.delete({ ...refOfDeployment, name: 'watched-window' });
  });

  it('shares one watch among the calls waiting in a namespace, unless a call applied before it opened', async () => {
    const runtime = world.runtimes[RUNTIME];
    if (!runtime) throw new Error('no runtime');
    const apply = (name: string) => runtime.apply<RuntimeObject>(deployment(name, true), 'rollout-watch-test');
    const earlier = await apply('watched-earlier');
    const [first, second] = [await apply('watched-first'), await apply('watched-second')];
    const watch = new RolloutWatch(30_000);
    countRequests(true);
    try {
      // The first call opens the watch at its apply; the second applied later and waits on it; the earlier one
      // applied before the watch's revision, so it could miss its own rollout there: a watch of its own.
      const seen = await Promise.all([first, second, earlier].map((d) => watch.settle(runtime, [d])));
      expect(seen.map((objects) => moduleReadiness(objects).state)).toEqual(['Ready', 'Ready', 'Ready']);
      const watches = requestTally().filter(
        (r) => r.caller === 'other' && r.verb === 'watch' && r.resource === 'deployments.apps',
      );
      expect(watches.reduce((n, r) => n + r.count, 0)).toBe(2);
    } finally {
      countRequests(false);
      for (const name of SHARED) await runtime.delete({ ...refOfDeployment, name }).catch(() => undefined);
    }
  });

  it("starts a call that joins a shared watch late from its workload's events that passed before", async () => {
    const runtime = world.runtimes[RUNTIME];
    if (!runtime) throw new Error('no runtime');
    const apply = (name: string, schedulable: boolean) =>
      runtime.apply<RuntimeObject>(deployment(name, schedulable), 'rollout-watch-test');
    const watch = new RolloutWatch(15_000);
    countRequests(true);
    try {
      // A call waits on a rollout that never settles, so the namespace's watch stays open; another workload applied
      // after it opened rolls out while nobody waits for it (its call still between its apply and its wait).
      const stuck = watch.settle(runtime, [await apply('watched-stuck', false)]);
      const late = await apply('watched-late', true);
      await rolledOut(runtime, 'watched-late');
      await sleep(1_000);
      const started = Date.now();
      const seen = await watch.settle(runtime, [late]);
      expect(moduleReadiness(seen).state).toBe('Ready');
      // Answered from the events that passed, not at the window's end (15 s).
      expect(Date.now() - started).toBeLessThan(10_000);
      const watches = requestTally().filter(
        (r) => r.caller === 'other' && r.verb === 'watch' && r.resource === 'deployments.apps',
      );
      expect(watches.reduce((n, r) => n + r.count, 0)).toBe(1);
      await runtime.delete({ ...refOfDeployment, name: 'watched-stuck' });
      expect(moduleReadiness(await stuck).state).toBe('Processing');
    } finally {
      countRequests(false);
      for (const name of LATE) await runtime.delete({ ...refOfDeployment, name }).catch(() => undefined);
    }
  });
});

/** Until the Deployment `name` in `default` is available, as read from the runtime. */
const rolledOut = (runtime: KubeClient, name: string) =>
  eventually(`Deployment default/${name} available`, async () => {
    const read = await runtime.get<RuntimeObject>({ ...refOfDeployment, name });
    return read && moduleReadiness([read]).state === 'Ready';
  });

const refOfDeployment = { apiVersion: 'apps/v1', kind: 'Deployment', namespace: 'default' };

/** A Deployment in `default` that rolls out on the runtime's nodes, or waits for a node that does not exist. */
function deployment(name: string, schedulable: boolean): RuntimeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name, namespace: 'default' },
    spec: {
      selector: { matchLabels: { app: name } },
      progressDeadlineSeconds: 600,
      template: {
        metadata: { labels: { app: name } },
        spec: {
          ...(schedulable ? {} : { nodeSelector: { 'no-such-node': 'true' } }),
          containers: [{ name: 'c', image: 'busybox' }],
        },
      },
    },
  };
}
