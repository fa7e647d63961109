import { describe, expect, it } from 'vitest';
import type { KubeClient } from './client.ts';
import { EventRecorder } from './events.ts';

const kyma = (name: string) => ({
  apiVersion: 'operator.kyma-project.io/v1beta2',
  kind: 'Kyma',
  name,
  namespace: 'kcp-system',
  uid: `uid-${name}`,
});

describe('EventRecorder: no event storms', () => {
  it('the same event about the same object goes once per 10 minutes; other events and objects are not held back', () => {
    let now = 0;
    const recorder = new EventRecorder(undefined as unknown as KubeClient, 'test', () => now);
    expect(recorder.admit(kyma('a'), 'Normal\nStateChanged\nProcessing → Ready')).toBe(true);
    expect(recorder.admit(kyma('a'), 'Normal\nStateChanged\nProcessing → Ready')).toBe(false);
    expect(recorder.admit(kyma('a'), 'Warning\nStateChanged\nReady → Error')).toBe(true);
    expect(recorder.admit(kyma('b'), 'Normal\nStateChanged\nProcessing → Ready')).toBe(true);
    now = 9 * 60_000;
    expect(recorder.admit(kyma('a'), 'Normal\nStateChanged\nProcessing → Ready')).toBe(false);
    now = 10 * 60_000;
    expect(recorder.admit(kyma('a'), 'Normal\nStateChanged\nProcessing → Ready')).toBe(true);
  });

  it('a flapping object gets at most 20 events per 10 minutes, then again after the window', () => {
    let now = 0;
    const recorder = new EventRecorder(undefined as unknown as KubeClient, 'test', () => now);
    const admitted = Array.from({ length: 30 }, (_, i) =>
      recorder.admit(kyma('flap'), `Normal\nStateChanged\n${i}`),
    ).filter(Boolean);
    expect(admitted).toHaveLength(20);
    expect(recorder.admit(kyma('other'), 'Normal\nStateChanged\n0')).toBe(true);
    now = 10 * 60_000;
    expect(recorder.admit(kyma('flap'), 'Normal\nStateChanged\n25')).toBe(true);
  });
});
