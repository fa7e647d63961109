import type { KubeClient } from './client.ts';

export interface InvolvedObject {
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string;
  uid?: string | undefined;
}

export type EventType = 'Normal' | 'Warning';

/** The involved object of an Event about `object`. */
export const involvedOf = (object: {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string | undefined; uid?: string | undefined };
}): InvolvedObject => ({
  apiVersion: object.apiVersion,
  kind: object.kind,
  name: object.metadata.name,
  namespace: object.metadata.namespace ?? '',
  uid: object.metadata.uid,
});

const MAX_MESSAGE = 1024;

/** Records a Kubernetes Event (core/v1) about an object; the message is cut to 1 KiB. Never throws. */
export async function recordEvent(
  client: KubeClient,
  involved: InvolvedObject,
  type: EventType,
  reason: string,
  message: string,
  component: string,
): Promise<void> {
  const now = new Date().toISOString();
  const text = message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message;
  await client
    .create({
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { generateName: `${involved.name}.`, namespace: involved.namespace },
      involvedObject: {
        apiVersion: involved.apiVersion,
        kind: involved.kind,
        name: involved.name,
        namespace: involved.namespace,
        ...(involved.uid ? { uid: involved.uid } : {}),
      },
      type,
      reason,
      message: text,
      source: { component },
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
      reportingComponent: component,
    } as never)
    .catch(() => undefined);
}

/** How long the same event about the same object is not recorded again, and how many events an object gets in it. */
const REPEAT_WINDOW_MS = 10 * 60_000;
const PER_OBJECT = 20;
/** Objects remembered at most (the oldest are forgotten first): bounded memory for any fleet size. */
const MAX_OBJECTS = 20_000;

/** A function's Events without storms (ADR 19): the same type, reason and message about the same object is recorded
 * once per REPEAT_WINDOW_MS, and an object gets at most PER_OBJECT events in that window. Per instance, in memory: a
 * restarted instance may repeat an event once. */
export class EventRecorder {
  private readonly client: KubeClient;
  private readonly component: string;
  private readonly now: () => number;
  /** Object → event key → when it was recorded. Map order = the order objects were last recorded. */
  private readonly recorded = new Map<string, Map<string, number>>();

  constructor(client: KubeClient, component: string, now: () => number = Date.now) {
    this.client = client;
    this.component = component;
    this.now = now;
  }

  /** Records the event unless it is a repeat or the object's budget is spent; true when it was sent. Never throws. */
  async record(
    involved: InvolvedObject,
    event: { type: EventType; reason: string; message: string } | undefined,
  ): Promise<boolean> {
    if (!event || !this.admit(involved, `${event.type}\n${event.reason}\n${event.message}`)) return false;
    await recordEvent(this.client, involved, event.type, event.reason, event.message, this.component);
    return true;
  }

  /** Whether an event may go now; remembers it when so. */
  admit(involved: InvolvedObject, key: string): boolean {
    const object = `${involved.namespace}/${involved.kind}/${involved.name}/${involved.uid ?? ''}`;
    const now = this.now();
    const seen = new Map([...(this.recorded.get(object) ?? [])].filter(([, at]) => now - at < REPEAT_WINDOW_MS));
    if (seen.has(key) || seen.size >= PER_OBJECT) return false;
    seen.set(key, now);
    this.recorded.delete(object);
    this.recorded.set(object, seen);
    if (this.recorded.size > MAX_OBJECTS) this.recorded.delete(this.recorded.keys().next().value as string);
    return true;
  }
}
