import type { KubeClient } from './client.ts';

export interface InvolvedObject {
  apiVersion: string;
  kind: string;
  name: string;
  namespace: string;
  uid?: string | undefined;
}

const MAX_MESSAGE = 1024;

/** Records a Kubernetes Event (core/v1) about an object; the message is cut to 1 KiB. Never throws. */
export async function recordEvent(client: KubeClient, involved: InvolvedObject, type: 'Normal' | 'Warning', reason: string,
  message: string, component: string): Promise<void> {
  const now = new Date().toISOString();
  const text = message.length > MAX_MESSAGE ? `${message.slice(0, MAX_MESSAGE - 1)}…` : message;
  await client.create({
    apiVersion: 'v1', kind: 'Event',
    metadata: { generateName: `${involved.name}.`, namespace: involved.namespace },
    involvedObject: { apiVersion: involved.apiVersion, kind: involved.kind, name: involved.name, namespace: involved.namespace, ...(involved.uid ? { uid: involved.uid } : {}) },
    type, reason, message: text, source: { component }, firstTimestamp: now, lastTimestamp: now, count: 1, reportingComponent: component,
  } as never).catch(() => undefined);
}
