import { describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { callContext, hasWritten, noteWrite, withinCall } from './call-context.ts';

describe('a call context', () => {
  it('is empty outside a call', () => {
    expect(callContext()).toEqual({});
  });

  it('keeps the outer entries under an inner one, through awaits, and restores them after it', async () => {
    const seen = await withinCall({ caller: 'apply-remote' }, async () => {
      const inner = await withinCall({ steps: { step: 'manifest_sync_resources' } }, async () => {
        await sleep(1);
        return callContext();
      });
      return { inner, after: callContext() };
    });
    expect(seen.inner).toEqual({ caller: 'apply-remote', steps: { step: 'manifest_sync_resources' } });
    expect(seen.after).toEqual({ caller: 'apply-remote' });
  });

  it('keeps calls running side by side apart', async () => {
    const callOf = (caller: string, wait: number) =>
      withinCall({ caller }, async () => {
        await sleep(wait);
        return callContext().caller;
      });
    expect(await Promise.all([callOf('purge', 5), callOf('resync', 1)])).toEqual(['purge', 'resync']);
  });

  it('counts the write requests of its own call only; outside a call, a write is assumed', async () => {
    expect(hasWritten(), 'nothing counted: assume the call wrote').toBe(true);
    const call = (writes: number) =>
      withinCall({ writes: { count: 0 } }, async () => {
        for (let i = 0; i < writes; i++) {
          await sleep(1);
          noteWrite();
        }
        return hasWritten();
      });
    expect(await Promise.all([call(0), call(2), call(0)])).toEqual([false, true, false]);
  });
});
