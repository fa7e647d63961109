// ≥ 1,000 generated broken CloudEvents per function, over real HTTP into each function's real host, acting as its
// production ServiceAccount on an audited KCP: every one is refused with a 4xx and a clear code, no function
// reads or writes anything for them, nothing is fanned out, and every host stays healthy. Then well-formed events
// about objects that do not exist: 204, still no write.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readConfig } from '../../shared/host/config.ts';
import { composeDeps } from '../../shared/host/compose.ts';
import type { FunctionDeps } from '../../shared/host/deps.ts';
import { startFunctionHost, type FunctionHost } from '../../shared/host/host.ts';
import type { LifecycleFunction } from '../../shared/host/invoke.ts';
import { createLogger } from '../../shared/host/logger.ts';
import { FUNCTIONS } from '../../local/runner/functions.ts';
import { clusters } from '../clusters.ts';
import { readAudit } from '../deploy/audited-kcp.ts';
import { usernameOf } from '../deploy/identities.ts';
import { startRbacKcp, type RbacKcp } from '../deploy/rbac-kcp.ts';
import { brokenRequests, eventsAboutNothing, type BrokenRequest } from './malformed-events.ts';

const RUNS = 1000;
/** The kinds each function handles (others are refused with a 400); resync's events point at no object. */
const KINDS: Record<string, string[]> = {
  'resolve-template': ['Kyma', 'ModuleTemplate', 'ModuleReleaseMeta'],
  'render-manifest': ['Kyma', 'Manifest'],
  'apply-remote': ['Manifest'],
  'aggregate-status': ['Kyma', 'Manifest'],
  purge: ['Kyma', 'Manifest'],
  resync: [],
};
const READS = new Set(['get', 'list', 'watch']);
let kcp: RbacKcp;
const hosts = new Map<string, { fn: LifecycleFunction; host: FunctionHost; deps: FunctionDeps }>();
const fannedOut: string[] = [];

beforeAll(async () => {
  kcp = await startRbacKcp('kcp-hostile-events');
  const config = readConfig({ LIFECYCLE_OCI_REGISTRY: `http://${clusters().registryHost}`, LOG_LEVEL: 'silent' });
  for (const [name, factory] of Object.entries(FUNCTIONS)) {
    const deps = await composeDeps(await kcp.identity(name), config, async (event) => {
      fannedOut.push(`${name}: ${event.type}`);
    });
    const fn = factory(deps);
    hosts.set(name, { fn, deps, host: await startFunctionHost(fn, createLogger(name, 'silent')) });
  }
}, 120_000);

afterAll(async () => {
  for (const { host, deps } of hosts.values()) {
    await host.close();
    deps.kcp.stopCaches();
  }
  await kcp?.cluster.stop();
});

async function send(url: string, request: BrokenRequest): Promise<{ status: number; body: string }> {
  const res = await fetch(url, { method: 'POST', headers: request.headers, body: request.body });
  return { status: res.status, body: await res.text() };
}

function served(name: string): { fn: LifecycleFunction; host: FunctionHost } {
  const entry = hosts.get(name);
  if (!entry) throw new Error(`${name} is not served`);
  return entry;
}

const requestsBy = async (component: string) =>
  (await readAudit(kcp.auditLog)).filter((r) => r.user === usernameOf(component));

describe.each(Object.keys(FUNCTIONS))('%s', (name) => {
  it(`refuses ${RUNS} generated broken CloudEvents with a 4xx, touching nothing`, async () => {
    const { fn, host } = served(name);
    const before = (await requestsBy(name)).length;
    const statuses = new Map<number, number>();
    await fc.assert(
      fc.asyncProperty(brokenRequests(fn.accepts, fn.keyless ?? false), async (request) => {
        const { status, body } = await send(host.url, request);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
        expect([400, 413], `${request.why} → ${status} ${body.slice(0, 200)}`).toContain(status);
        if (status === 400) {
          const answer = JSON.parse(body) as { code: string; message: string };
          expect(answer.code).toBe('LCM_ERR_EVENT_INVALID');
          expect(answer.message.length, 'the answer does not echo the input at length').toBeLessThan(400);
        }
      }),
      { numRuns: RUNS },
    );
    expect(statuses.get(400), 'most broken events are 400').toBeGreaterThan(RUNS / 2);
    expect(statuses.get(413), 'huge bodies are 413').toBeGreaterThan(0);
    expect((await requestsBy(name)).length - before, 'not one KCP request for a broken event').toBe(0);
    expect(fannedOut).toEqual([]);
    expect((await fetch(`${host.url}/health/liveness`)).status).toBe(200);
  }, 300_000);

  it('answers well-formed events about objects that do not exist with 204 and writes nothing', async () => {
    const { fn, host } = served(name);
    await fc.assert(
      fc.asyncProperty(eventsAboutNothing(fn.accepts, KINDS[name] ?? []), async (request) => {
        const { status, body } = await send(host.url, request);
        expect(status, `${request.why} → ${body.slice(0, 200)}`).toBe(204);
      }),
      { numRuns: 100 },
    );
    const writes = (await requestsBy(name)).filter((r) => !READS.has(r.verb));
    expect(writes.map((w) => `${w.verb} ${w.resource} ${w.name}`)).toEqual([]);
    expect(fannedOut).toEqual([]);
  }, 300_000);
});

describe('every function over HTTP', () => {
  it.each([
    ['not a CloudEvent', { 'content-type': 'application/json' }, '{"hello":1}', 400],
    [
      'wrong specversion',
      {
        'ce-specversion': '0.3',
        'ce-id': '1',
        'ce-source': '/x',
        'ce-type': 'dev.knative.apiserver.resource.update',
        'ce-kind': 'Kyma',
        'ce-apiversion': 'v1',
        'ce-name': 'k',
        'ce-namespace': 'kcp-system',
      },
      '{}',
      400,
    ],
    [
      'missing object extensions',
      { 'ce-specversion': '1.0', 'ce-id': '2', 'ce-source': '/x', 'ce-type': 'dev.knative.apiserver.resource.update' },
      '{}',
      400,
    ],
    [
      'an unknown event type',
      {
        'ce-specversion': '1.0',
        'ce-id': '3',
        'ce-source': '/x',
        'ce-type': 'com.example.unknown',
        'ce-kind': 'Kyma',
        'ce-apiversion': 'v1',
        'ce-name': 'k',
        'ce-namespace': 'kcp-system',
      },
      '{}',
      400,
    ],
    ['structured mode with broken JSON', { 'content-type': 'application/cloudevents+json' }, '{"specversion":', 400],
    [
      'a body over 1 MiB',
      { 'ce-specversion': '1.0', 'ce-id': '4', 'ce-source': '/x', 'ce-type': 'x', 'content-type': 'application/json' },
      `"${'x'.repeat(1_100_000)}"`,
      413,
    ],
  ])('answers %s with a 4xx (never retried by Knative)', async (_, headers, body, status) => {
    for (const [name, { host }] of hosts) {
      const response = await fetch(host.url, { method: 'POST', headers, body });
      expect([name, response.status]).toEqual([name, status]);
    }
  });
});
