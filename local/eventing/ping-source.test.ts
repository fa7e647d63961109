import type { CloudEvent } from 'cloudevents';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { cronMatches, LocalPingSource, parseCron, parsePingSources, pingEvent, pingSourcesOf } from './ping-source.ts';
import { readManifestDirectory } from '../controlplane/object-files.ts';

const at = (iso: string) => new Date(iso);
const fires = (expression: string, iso: string) => cronMatches(parseCron(expression), at(iso));

describe('cron', () => {
  it.each([
    ['* * * * *', '2026-03-04T05:06:00Z', true],
    ['*/10 * * * *', '2026-03-04T05:20:00Z', true],
    ['*/10 * * * *', '2026-03-04T05:21:00Z', false],
    ['5,35 * * * *', '2026-03-04T05:35:00Z', true],
    ['5,35 * * * *', '2026-03-04T05:36:00Z', false],
    ['0 9-17 * * *', '2026-03-04T17:00:00Z', true],
    ['0 9-17 * * *', '2026-03-04T18:00:00Z', false],
    ['0 8-18/5 * * *', '2026-03-04T13:00:00Z', true],
    ['0 8-18/5 * * *', '2026-03-04T12:00:00Z', false],
    ['10/20 * * * *', '2026-03-04T05:50:00Z', true],
    ['10/20 * * * *', '2026-03-04T05:00:00Z', false],
    ['0 0 1 1 *', '2026-01-01T00:00:00Z', true],
    ['0 0 * * 0', '2026-03-08T00:00:00Z', true], // a Sunday
    ['0 0 * * 7', '2026-03-08T00:00:00Z', true], // 7 is Sunday too
    ['0 0 * * mon-fri', '2026-03-08T00:00:00Z', false],
    ['0 0 * jan-mar wed', '2026-03-04T00:00:00Z', true],
    ['0 0 13 * 5', '2026-03-13T00:00:00Z', true], // both day fields restricted: either matches
    ['0 0 13 * 5', '2026-03-06T00:00:00Z', true],
    ['0 0 13 * 5', '2026-03-07T00:00:00Z', false],
    ['0 0 13 * *', '2026-03-06T00:00:00Z', false],
    ['@hourly', '2026-03-04T05:00:00Z', true],
    ['@daily', '2026-03-04T05:00:00Z', false],
  ])('%s at %s → %s (UTC)', (expression, iso, expected) => {
    expect(fires(expression, iso)).toBe(expected);
  });

  it.each(['* * * *', '60 * * * *', '* 24 * * *', '* * 0 * *', '*/0 * * * *', '5-1 * * * *', 'x * * * *', '@every 1m'])(
    'rejects %s',
    (expression) => {
      expect(() => parseCron(expression)).toThrow(/cron/);
    },
  );
});

describe('PingSource YAML', () => {
  it('reads PingSources from a directory (other kinds ignored)', async () => {
    const [resync, ...rest] = pingSourcesOf(
      await readManifestDirectory(fileURLToPath(new URL('../../test/fixtures/eventing/sources', import.meta.url))),
    );
    expect(rest).toEqual([]);
    expect(resync).toMatchObject({
      name: 'resync',
      namespace: 'kcp-system',
      data: '{"action":"resync"}',
      contentType: 'application/json',
    });
    expect(resync && cronMatches(resync.schedule, at('2026-03-04T05:02:00Z'))).toBe(true);
  });

  const ping = (spec: string) =>
    `apiVersion: sources.knative.dev/v1\nkind: PingSource\nmetadata: {name: p, namespace: ns}\nspec:\n${spec}`;

  it('supports UTC only', () => {
    expect(() => parsePingSources(ping('  timezone: Europe/Berlin'), 'p.yaml')).toThrow(
      /p\.yaml: PingSource p: spec\.timezone: .*only UTC/,
    );
    expect(() => parsePingSources(ping('  schedule: "CRON_TZ=America/New_York 0 * * * *"'))).toThrow(/only UTC/);
    expect(parsePingSources(ping('  timezone: UTC\n  schedule: "TZ=UTC 0 * * * *"'))[0]?.schedule.minutes).toEqual(
      new Set([0]),
    );
  });

  it('defaults the schedule to every minute and rejects data with dataBase64', () => {
    expect(parsePingSources(ping('  data: x'))[0]?.schedule.minutes.size).toBe(60);
    expect(() => parsePingSources(ping('  data: x\n  dataBase64: eA=='))).toThrow(/mutually exclusive/);
  });
});

describe('LocalPingSource', () => {
  it('fireNow sends the ping event of the source to the sink', async () => {
    const sent: CloudEvent<unknown>[] = [];
    const [spec] = parsePingSources(`apiVersion: sources.knative.dev/v1
kind: PingSource
metadata: {name: resync, namespace: kcp-system}
spec: {schedule: "*/5 * * * *", contentType: application/json, data: '{"action":"resync"}'}`);
    if (!spec) throw new Error('no spec');
    const source = new LocalPingSource({ sources: [spec], sink: async (event) => void sent.push(event) });
    await source.fireNow('resync');
    await expect(source.fireNow('unknown')).rejects.toThrow(/no PingSource named unknown/);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      type: 'dev.knative.sources.ping',
      source: '/apis/v1/namespaces/kcp-system/pingsources/resync',
      datacontenttype: 'application/json',
      data: '{"action":"resync"}',
      specversion: '1.0',
    });
  });

  it('decodes dataBase64', () => {
    const [spec] = parsePingSources(
      'apiVersion: sources.knative.dev/v1\nkind: PingSource\nmetadata: {name: b}\nspec: {dataBase64: aGk=, contentType: text/plain}',
    );
    if (!spec) throw new Error('no spec');
    const event = pingEvent(spec, at('2026-03-04T05:00:00Z'));
    expect(Buffer.from(event.data as Uint8Array).toString()).toBe('hi');
    expect(event.time).toBe('2026-03-04T05:00:00.000Z');
    expect(event.source).toBe('/apis/v1/namespaces/default/pingsources/b');
  });
});
