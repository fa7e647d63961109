// Replaying one step by hand: the curl command of docs/operating.md (binary-mode CloudEvent) sent to a running function of the
// local runner, with the real curl binary. The replay repairs drift; a second replay writes nothing.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { KCP_NAMESPACE } from '../../shared/core/vocabulary.ts';
import { publishSampleModule, setReleaseChannels } from '../../tools/module/publish.ts';
import { deploymentOf } from './removal-helpers.ts';
import { docBashBlock, shellFunction } from './readme.ts';
import { converged } from './replay.ts';
import { writeRequestsDuring, writeSnapshot } from './snapshot.ts';
import {
  applyKyma,
  connectRuntime,
  justAfterTheMinute,
  kymaInState,
  manifestsOf,
  resyncTicks,
  startWorld,
  stopWorld,
  type World,
} from './world.ts';

let world: World;
const run = promisify(execFile);

/** Runs the documented `ce <type> <kind> <name>` (its shell function, read from docs/operating.md) against a function's URL. */
async function ce(url: string, type: string, kind: string, name: string): Promise<{ status: number; headers: string }> {
  const define = shellFunction(await docBashBlock('operating.md', 'Replaying a step with curl'), 'ce');
  const { stdout } = await run('bash', ['-c', `${define}\nce "$@"`, 'ce', type, kind, name], {
    env: { ...process.env, URL: url },
  });
  return answer(stdout);
}

/** Runs the documented resync tick (the `curl … dev.knative.sources.ping` command) against the resync function. */
async function resyncTick(url: string): Promise<{ status: number; headers: string }> {
  const block = await docBashBlock('operating.md', 'Replaying a step with curl');
  const tick = /^curl -si "\$URL"[^\n]*\\\n[^\n]*dev\.knative\.sources\.ping[^#\n]*/m.exec(block)?.[0];
  if (!tick) throw new Error('docs/operating.md has no resync tick command');
  const { stdout } = await run('bash', ['-c', tick], { env: { ...process.env, URL: url } });
  return answer(stdout);
}

function answer(stdout: string): { status: number; headers: string } {
  const [head = ''] = stdout.split('\r\n\r\n');
  return { status: Number(/^HTTP\/[\d.]+ (\d+)/.exec(head)?.[1]), headers: head.toLowerCase() };
}

const UPDATE = 'dev.knative.apiserver.resource.update';
const RESOLVED = 'io.kyma-project.lifecycle.modules.resolved';
const urlOf = (fn: string) => world.runner.functions.get(fn) ?? '';

beforeAll(async () => {
  world = await startWorld();
  await publishSampleModule(world.registry, world.kcp, { name: 'romeo', version: '1.0.0', namespace: KCP_NAMESPACE });
  await setReleaseChannels(world.kcp, KCP_NAMESPACE, 'romeo', [{ channel: 'regular', version: '1.0.0' }]);
});

afterAll(async () => {
  await stopWorld(world);
});

describe('replaying a step with curl', () => {
  it('the documented commands: apply-remote repairs a deleted Deployment on replay (503: call again until rolled out); resolve-template answers with its reply event, which render-manifest takes on; a second replay writes nothing', async () => {
    const runtime = world.runtimes[1];
    if (!runtime) throw new Error('no runtime');
    await connectRuntime(world, 'cr-a', 1);
    await applyKyma(world, 'cr-a', { channel: 'regular', modules: [{ name: 'romeo' }] });
    await kymaInState(world, 'cr-a', 'Ready', (k) => k.status?.modules?.[0]?.state === 'Ready');
    const manifest = (await manifestsOf(world, 'cr-a'))[0]?.metadata.name ?? '';
    await converged(world);

    // Drift on the runtime makes no KCP event: only the resync (once per drift period) or a replay repairs it.
    await runtime.delete({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      namespace: 'kyma-system',
      name: 'romeo-manager',
    });
    await world.runner.broker.idle();
    expect(await deploymentOf(runtime, 'romeo')).toBeUndefined();
    // 503 = progress made, call again (the re-created Deployment is not rolled out yet). A replay is not a broker
    // delivery: nobody retries it, and the function ignores the echoes of its own status writes (ADR 25), so the
    // caller calls again until 204, as docs/operating.md says.
    const statuses: number[] = [];
    for (let i = 0; i < 30 && statuses.at(-1) !== 204; i++) {
      if (i > 0) await new Promise((r) => setTimeout(r, 1_000));
      statuses.push((await ce(urlOf('apply-remote'), UPDATE, 'Manifest', manifest)).status);
    }
    expect(statuses.at(-1)).toBe(204);
    expect(statuses.every((s) => s === 204 || s === 503)).toBe(true);
    expect(await deploymentOf(runtime, 'romeo')).toBeDefined();
    await converged(world);

    const before = await writeSnapshot(world.kcp, world.runtimes);
    await justAfterTheMinute(); // no resync tick (and its drift checks) while the replays run
    const ticks = resyncTicks(world);
    const writes = await writeRequestsDuring(async () => {
      expect((await ce(urlOf('apply-remote'), UPDATE, 'Manifest', manifest)).status).toBe(204);
      const resolved = await ce(urlOf('resolve-template'), UPDATE, 'Kyma', 'cr-a');
      expect(resolved.status).toBe(200);
      expect(resolved.headers).toContain(`ce-type: ${RESOLVED}`);
      // "from this step onwards": the reply goes on to render-manifest by hand; converged, it changes nothing
      expect((await ce(urlOf('render-manifest'), RESOLVED, 'Kyma', 'cr-a')).status).toBe(204);
      expect((await ce(urlOf('aggregate-status'), UPDATE, 'Kyma', 'cr-a')).status).toBe(204);
      await world.runner.broker.idle();
    });
    expect(resyncTicks(world)).toBe(ticks);
    expect(writes).toEqual([]);
    expect(await writeSnapshot(world.kcp, world.runtimes)).toEqual(before);
    // the documented resync tick: the resync function takes it and fans out what is due
    expect((await resyncTick(urlOf('resync'))).status).toBe(204);
  });
});
