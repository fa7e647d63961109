// A function instance holds more calls than it runs (on Knative: containerConcurrency above LIFECYCLE_CALLS_AT_ONCE,
// ADR 72) and starts the waiting ones by lane, over real HTTP CloudEvents: a user's edit, and the API server's event
// about a Manifest a user-lane call wrote last, go before the fleet's installs that came first.
import { CloudEvent } from 'cloudevents';
import { afterEach, describe, expect, it } from 'vitest';
import { startFunctionHost, type FunctionHost } from '../shared/host/host.ts';
import type { LifecycleFunction } from '../shared/host/invoke.ts';
import { createLogger } from '../shared/host/logger.ts';
import { postEvent } from './faults/function-host-helpers.ts';

let host: FunctionHost | undefined;
afterEach(async () => host?.close());

const manifestEvent = (name: string, extensions: Record<string, string> = {}, lastLane?: string) =>
  new CloudEvent<unknown>({
    type: 'dev.knative.apiserver.resource.update',
    source: '/test',
    kind: 'Manifest',
    apiversion: 'operator.kyma-project.io/v1beta2',
    namespace: 'kcp-system',
    name,
    ...extensions,
    data: {
      metadata: {
        name,
        namespace: 'kcp-system',
        managedFields: [
          { manager: 'declarative.kyma-project.io/applier', subresource: 'status', time: '2026-12-03T10:00:00Z' },
        ],
      },
      status: lastLane ? { lastLane } : {},
    },
  });

describe('a function instance starts its waiting calls by lane (ADR 72)', () => {
  it('runs one call at a time here; the user lane goes first, then the installs, then the background lane', async () => {
    const started: string[] = [];
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const fn: LifecycleFunction = {
      name: 'lanes',
      accepts: ['dev.knative.apiserver.resource.update'],
      async handle({ key }) {
        started.push(key.name);
        if (key.name === 'install-0') await held;
        return undefined;
      },
    };
    host = await startFunctionHost(fn, createLogger('lanes', 'silent'), 0, '127.0.0.1', 1);
    const url = host.url;
    const answers = [postEvent(url, manifestEvent('install-0'))];
    await expect.poll(() => started).toEqual(['install-0']);
    const send = async (event: CloudEvent<unknown>) => {
      answers.push(postEvent(url, event));
      // Each has arrived and waits before the next is sent: arrival order is the order here.
      await new Promise((resolve) => setTimeout(resolve, 100));
    };
    await send(manifestEvent('install-1'));
    await send(manifestEvent('drift-check', { lifecyclelane: 'background' }));
    await send(manifestEvent('install-2'));
    await send(manifestEvent('edit', { lifecyclelane: 'user' }));
    await send(manifestEvent('edited-manifest', {}, 'user'));
    expect(started, 'nothing else runs while the first call holds the only slot').toEqual(['install-0']);
    release();
    expect(await Promise.all(answers)).toEqual([204, 204, 204, 204, 204, 204]);
    expect(started).toEqual(['install-0', 'edit', 'edited-manifest', 'install-1', 'install-2', 'drift-check']);
  });
});
