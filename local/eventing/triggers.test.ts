import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { backoffMs, isRetryableStatus } from './delivery.ts';
import { parseIsoDuration } from './duration.ts';
import { DEFAULT_DELIVERY, loadTriggers, parseTriggers } from './triggers.ts';
import { knativeAddress } from './dead-letters.ts';
import { deadLetterFunction } from '../../components/fleet/dead-letters.ts';

const fixtures = (dir: string) => fileURLToPath(new URL(`../../test/fixtures/eventing/${dir}`, import.meta.url));

const trigger = (spec: string) => `apiVersion: eventing.knative.dev/v1
kind: Trigger
metadata: {name: t1}
spec:
${spec}`;

describe('loadTriggers', () => {
  it('reads every Trigger of the YAML files of a directory, skipping other kinds and kustomization.yaml', async () => {
    const triggers = await loadTriggers(fixtures('triggers'));
    expect(triggers.map((t) => t.name)).toEqual(['purge', 'resolve-template-kyma', 'resolve-template-resync']);
    const [purge, kyma, resync] = triggers;
    expect(kyma).toEqual({
      name: 'resolve-template-kyma',
      namespace: 'kcp-system',
      broker: 'default',
      filters: [{ prefix: { type: 'dev.knative.apiserver.resource.' } }, { exact: { kind: 'Kyma' } }],
      subscriber: { ref: { apiVersion: 'serving.knative.dev/v1', kind: 'Service', name: 'resolve-template' } },
      delivery: { retry: 5, backoffPolicy: 'linear', backoffDelayMs: 500, timeoutMs: 120_000 },
    });
    expect(resync?.filters).toEqual([{ attributes: { type: 'dev.knative.sources.ping', source: '' } }]);
    expect(resync?.subscriber).toEqual({ uri: 'http://127.0.0.1:9999/resync' });
    expect(resync?.delivery).toEqual(DEFAULT_DELIVERY);
    expect(purge?.subscriber).toEqual({ ref: { kind: 'Service', name: 'purge' }, uri: '/purge' });
    expect(purge?.filters[1]).toEqual({ not: { suffix: { name: '-ignored' } } });
  });

  it('fails fast on cesql, naming the file and the Trigger', async () => {
    await expect(loadTriggers(fixtures('bad-trigger'))).rejects.toThrow(
      /cesql\.yaml: Trigger uses-cesql: spec\.filters\[0\]\.cesql: .*not supported by the local broker/,
    );
  });
});

describe('parseTriggers', () => {
  it('prefers filters over filter.attributes, as Knative does', () => {
    const [t] = parseTriggers(
      trigger(`  broker: default
  filter: {attributes: {type: legacy}}
  filters: [{exact: {type: modern}}]
  subscriber: {uri: http://x/}`),
    );
    expect(t?.filters).toEqual([{ exact: { type: 'modern' } }]);
  });

  it.each([
    ['no broker', '  subscriber: {uri: http://x/}', /spec\.broker: is required/],
    ['no subscriber', '  broker: default', /spec\.subscriber: is required/],
    ['a subscriber without ref or uri', '  broker: default\n  subscriber: {}', /needs a ref or a uri/],
    [
      'a negative retry',
      '  broker: b\n  subscriber: {uri: http://x/}\n  delivery: {retry: -1}',
      /retry: must be a non-negative integer/,
    ],
    [
      'an unknown backoff policy',
      '  broker: b\n  subscriber: {uri: http://x/}\n  delivery: {backoffPolicy: random}',
      /backoffPolicy: must be exponential or linear/,
    ],
    [
      'a bad duration',
      '  broker: b\n  subscriber: {uri: http://x/}\n  delivery: {backoffDelay: 200ms}',
      /backoffDelay: "200ms" is not an ISO-8601 duration/,
    ],
  ])('rejects a Trigger with %s, naming the file', (_, spec, message) => {
    expect(() => parseTriggers(trigger(spec), 'triggers/t1.yaml')).toThrow(message);
    expect(() => parseTriggers(trigger(spec), 'triggers/t1.yaml')).toThrow(/^triggers\/t1\.yaml: Trigger t1: /);
  });

  it('rejects invalid YAML with the file name', () => {
    expect(() => parseTriggers('kind: [', 'broken.yaml')).toThrow(/^broken\.yaml: invalid YAML/);
  });
});

describe('delivery policy', () => {
  it('parses ISO-8601 durations', () => {
    expect(parseIsoDuration('PT0.2S')).toBe(200);
    expect(parseIsoDuration('PT1S')).toBe(1000);
    expect(parseIsoDuration('PT2M')).toBe(120_000);
    expect(parseIsoDuration('PT1H30M')).toBe(5_400_000);
    expect(parseIsoDuration('P1DT1S')).toBe(86_401_000);
    for (const bad of ['', 'P', 'PT', '1S', 'P1Y', 'PT-1S']) expect(() => parseIsoDuration(bad)).toThrow(/ISO-8601/);
  });

  it('backs off exponentially (delay × 2^n) or linearly (delay × n)', () => {
    const exponential = { ...DEFAULT_DELIVERY, backoffDelayMs: 100 };
    expect([1, 2, 3].map((n) => backoffMs(exponential, n))).toEqual([200, 400, 800]);
    const linear = { ...exponential, backoffPolicy: 'linear' as const };
    expect([1, 2, 3].map((n) => backoffMs(linear, n))).toEqual([100, 200, 300]);
  });

  it('retries what Knative retries', () => {
    expect([500, 502, 503, 404, 408, 409, 429].every(isRetryableStatus)).toBe(true);
    expect([400, 401, 403, 422, 301].some(isRetryableStatus)).toBe(false);
  });
});

describe('dead-letter sinks (ADR 60)', () => {
  it("reads a Trigger's deadLetterSink; every shipped Trigger sends its dead letters to the fleet component", async () => {
    const [t] = parseTriggers(
      trigger(`  broker: b
  subscriber: {ref: {kind: Service, name: f}}
  delivery:
    retry: 1
    deadLetterSink: {ref: {apiVersion: serving.knative.dev/v1, kind: Service, name: lifecycle-fleet}, uri: /dead-letters}`),
    );
    expect(t?.deadLetterSink).toEqual({
      ref: { apiVersion: 'serving.knative.dev/v1', kind: 'Service', name: 'lifecycle-fleet' },
      uri: '/dead-letters',
    });
    expect(() =>
      parseTriggers(trigger('  broker: b\n  subscriber: {uri: http://x}\n  delivery: {deadLetterSink: {}}')),
    ).toThrow(/spec\.delivery\.deadLetterSink: needs a ref or a uri/);
    const shipped = await loadTriggers(fileURLToPath(new URL('../../manifests/triggers', import.meta.url)));
    expect(shipped.length).toBeGreaterThan(5);
    for (const s of shipped) expect(s.deadLetterSink?.ref?.name, s.name).toBe('lifecycle-fleet');
  });

  it("names a dead letter's destination as Knative does: a Service's cluster-local address", () => {
    expect(knativeAddress({ ref: { kind: 'Service', name: 'apply-remote' } }, 'kcp-system')).toBe(
      'http://apply-remote.kcp-system.svc.cluster.local',
    );
    expect(knativeAddress({ uri: 'http://x:1/y' }, 'kcp-system')).toBe('http://x:1/y');
    expect(deadLetterFunction(knativeAddress({ ref: { kind: 'Service', name: 'apply-remote' } }, 'kcp-system'))).toBe(
      'apply-remote',
    );
    expect(deadLetterFunction('http://127.0.0.1:8080')).toBe('unknown');
    expect(deadLetterFunction(undefined)).toBe('unknown');
  });
});
