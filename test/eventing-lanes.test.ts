// The shipped Triggers' lanes through the local broker over real HTTP (ADR 25, 68): a user's edit is delivered while
// every delivery slot of the function's main Trigger is taken by a fleet's installs.
import { CloudEvent } from 'cloudevents';
import type { ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { LocalBroker, loadTriggers } from '../local/eventing/index.ts';
import { cleanUp, cleanups, recordingLog, subscriber, waitFor } from './eventing-helpers.ts';

afterEach(cleanUp);

const SHIPPED = fileURLToPath(new URL('../manifests/triggers', import.meta.url));

const kymaEvent = (type: string, name: string, lane?: string) =>
  new CloudEvent<unknown>({
    type,
    source: '/test',
    subject: `kcp-system/${name}`,
    kind: 'Kyma',
    namespace: 'kcp-system',
    name,
    ...(lane ? { lifecyclelane: lane } : {}),
  });

describe("resolve-template's lanes", () => {
  it("delivers a user's edit while the main lane's slots are all taken, and the installs after it", async () => {
    const held: ServerResponse[] = [];
    const sub = await subscriber((request, _, res) =>
      request.headers['ce-lifecyclelane'] ? res.writeHead(204).end() : held.push(res),
    );
    const triggers = (await loadTriggers(SHIPPED)).filter((t) => t.subscriber.ref?.name === 'resolve-template');
    const broker = new LocalBroker({
      triggers,
      log: recordingLog(),
      resolveSubscriber: () => sub.url,
      maxConcurrentDeliveries: 2,
    });
    await broker.start();
    cleanups.push(() => broker.stop());
    for (const name of ['kyma-1', 'kyma-2', 'kyma-3'])
      await broker.publish(kymaEvent('dev.knative.apiserver.resource.add', name));
    await waitFor(() => expect(held).toHaveLength(2));
    await broker.publish(kymaEvent('io.kyma-project.lifecycle.resync.due', 'kyma-0', 'user'));
    await waitFor(() =>
      expect(sub.received.map((r) => r.headers['ce-lifecyclelane'])).toEqual([undefined, undefined, 'user']),
    );
    expect(held, 'the installs still hold both slots').toHaveLength(2);
    for (const res of held.splice(0)) res.writeHead(204).end();
    await waitFor(() => expect(held).toHaveLength(1));
    held[0]?.writeHead(204).end();
    await broker.idle();
    expect(broker.stats()).toMatchObject({ received: 4, delivered: 4, deadLettered: 0 });
  });
});
