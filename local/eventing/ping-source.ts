// The local PingSource: `dev.knative.sources.ping` events on a cron schedule (UTC), read from PingSource YAML.
import { CloudEvent } from 'cloudevents';
import { cronMatches, parseCron, type CronSchedule } from './cron.ts';
import { defaultLog, type EventingLog } from './log.ts';
import { asRecord, optionalString, requiredString } from './manifest-fields.ts';
import { sendToSink, type EventSink } from '../../shared/host/sink.ts';
import { ofKind, parseManifests, type ManifestDocument } from '../controlplane/object-files.ts';

export { cronMatches, parseCron, type CronSchedule } from './cron.ts';

export interface PingSourceSpec {
  readonly name: string;
  readonly namespace: string;
  readonly schedule: CronSchedule;
  readonly data?: string;
  readonly dataBase64?: string;
  readonly contentType?: string;
}

const UTC_NAMES = new Set(['UTC', 'Etc/UTC', 'Etc/GMT', 'GMT', 'Z']);

export function parsePingSources(text: string, file = '<inline>'): PingSourceSpec[] {
  return pingSourcesOf(parseManifests(text, file));
}

/** Every PingSource among `docs`. */
export function pingSourcesOf(docs: readonly ManifestDocument[]): PingSourceSpec[] {
  return ofKind(docs, 'sources.knative.dev/v1', 'PingSource').map((doc) => {
    const metadata = asRecord(doc.object.metadata, 'metadata') ?? {};
    try {
      return pingSourceFrom(metadata, asRecord(doc.object.spec, 'spec') ?? {});
    } catch (e) {
      throw new Error(`${doc.file}: PingSource ${String(metadata.name ?? '(unnamed)')}: ${(e as Error).message}`, {
        cause: e,
      });
    }
  });
}

function pingSourceFrom(metadata: Record<string, unknown>, spec: Record<string, unknown>): PingSourceSpec {
  const { schedule, timezone } = splitTimezone(optionalString(spec.schedule, 'spec.schedule') ?? '* * * * *');
  const zone = optionalString(spec.timezone, 'spec.timezone') ?? timezone;
  if (zone !== undefined && !UTC_NAMES.has(zone))
    throw new Error(`spec.timezone: the local PingSource supports only UTC, got ${zone}`);
  const data = optionalString(spec.data, 'spec.data');
  const dataBase64 = optionalString(spec.dataBase64, 'spec.dataBase64');
  if (data !== undefined && dataBase64 !== undefined)
    throw new Error('spec.data and spec.dataBase64 are mutually exclusive');
  const contentType = optionalString(spec.contentType, 'spec.contentType');
  return {
    name: requiredString(metadata.name, 'metadata.name'),
    namespace: optionalString(metadata.namespace, 'metadata.namespace') ?? 'default',
    schedule: parseCron(schedule),
    ...(data === undefined ? {} : { data }),
    ...(dataBase64 === undefined ? {} : { dataBase64 }),
    ...(contentType === undefined ? {} : { contentType }),
  };
}

/** A `CRON_TZ=…` / `TZ=…` prefix, as robfig/cron accepts it. */
function splitTimezone(text: string): { schedule: string; timezone?: string } {
  const match = /^(?:CRON_TZ|TZ)=(\S+)\s+(.*)$/.exec(text.trim());
  return match ? { schedule: match[2] ?? '', timezone: match[1] ?? '' } : { schedule: text };
}

/** The event of one ping: `source` is the PingSource's path; data as given, with `contentType` as its type. */
export function pingEvent(spec: PingSourceSpec, time = new Date()): CloudEvent<unknown> {
  const data = spec.dataBase64 !== undefined ? Buffer.from(spec.dataBase64, 'base64') : spec.data;
  return new CloudEvent({
    type: 'dev.knative.sources.ping',
    source: `/apis/v1/namespaces/${spec.namespace}/pingsources/${spec.name}`,
    time: time.toISOString(),
    ...(spec.contentType === undefined ? {} : { datacontenttype: spec.contentType }),
    ...(data === undefined ? {} : { data }),
  });
}

export interface LocalPingSourceOptions {
  readonly sources: readonly PingSourceSpec[];
  readonly sink: EventSink;
  readonly log?: EventingLog;
}

export class LocalPingSource {
  private readonly options: LocalPingSourceOptions;
  private readonly log: EventingLog;
  private timer: NodeJS.Timeout | undefined;
  private running = false;

  constructor(options: LocalPingSourceOptions) {
    this.options = options;
    this.log = options.log ?? defaultLog('local-ping-source');
  }

  /** Fires every source whose schedule matches, at the start of each UTC minute. */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.scheduleNextMinute();
  }

  stop(): void {
    this.running = false;
    clearTimeout(this.timer);
  }

  /** Sends the named source's event now (tests, and a resync at start-up). */
  async fireNow(name: string): Promise<void> {
    const spec = this.options.sources.find((s) => s.name === name);
    if (!spec) throw new Error(`no PingSource named ${name}`);
    await sendToSink(this.options.sink, pingEvent(spec), this.log);
  }

  private scheduleNextMinute(): void {
    const next = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 60_000);
    this.timer = setTimeout(() => this.tick(next), next.getTime() - Date.now());
  }

  private tick(minute: Date): void {
    if (!this.running) return;
    this.scheduleNextMinute();
    for (const spec of this.options.sources) {
      if (cronMatches(spec.schedule, minute)) void sendToSink(this.options.sink, pingEvent(spec, minute), this.log);
    }
  }
}
