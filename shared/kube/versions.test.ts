import { describe, expect, it } from 'vitest';
import { versionsOf } from './versions.ts';

const at = (name: string, resourceVersion: string) => ({ metadata: { name, resourceVersion } });

describe('what a quiet drift check compares (ADR 93, 95)', () => {
  it('names each object with its resourceVersion, in name order whatever the order read', () => {
    expect(versionsOf([at('kyma-b', '7'), at('kyma-a', '12')])).toBe('kyma-a@12,kyma-b@7');
    expect(versionsOf([at('kyma-a', '12'), at('kyma-b', '7')])).toBe(
      versionsOf([at('kyma-b', '7'), at('kyma-a', '12')]),
    );
  });

  it('differs when an object moved, went or came', () => {
    const seen = versionsOf([at('kyma-a', '12'), at('kyma-b', '7')]);
    expect(versionsOf([at('kyma-a', '13'), at('kyma-b', '7')])).not.toBe(seen);
    expect(versionsOf([at('kyma-a', '12')])).not.toBe(seen);
    expect(versionsOf([at('kyma-a', '12'), at('kyma-b', '7'), at('kyma-c', '1')])).not.toBe(seen);
    expect(versionsOf([])).toBe('');
  });
});
