import { describe, expect, it } from 'vitest';
import { isUpstreams, UPSTREAM_WATCHER } from './upstream-watcher.ts';

const object = (labels: Record<string, string> | undefined, managers: { manager: string; operation: string }[]) => ({
  metadata: { name: 'skr-webhook', ...(labels ? { labels } : {}), managedFields: managers },
});

describe("upstream's SKR watcher (ADR 40)", () => {
  it("is an object labelled managed-by kyma that upstream's lifecycle-manager applied", () => {
    expect(
      isUpstreams(
        object({ 'operator.kyma-project.io/managed-by': 'kyma' }, [
          { manager: 'lifecycle-manager', operation: 'Apply' },
        ]),
      ),
    ).toBe(true);
  });

  it.each([
    ['gone', undefined],
    ["a user's of the same name", object(undefined, [{ manager: 'kubectl', operation: 'Update' }])],
    [
      'labelled but made by someone else',
      object({ 'operator.kyma-project.io/managed-by': 'kyma' }, [
        { manager: 'kubectl-client-side-apply', operation: 'Update' },
      ]),
    ],
    [
      'applied by lifecycle-manager but not labelled',
      object({}, [{ manager: 'lifecycle-manager', operation: 'Apply' }]),
    ],
  ])('is not %s', (_, found) => {
    expect(isUpstreams(found)).toBe(false);
  });

  it('removes the webhook configuration first and reads the Deployment to tell whether anything is left', () => {
    expect(UPSTREAM_WATCHER[0]?.kind).toBe('ValidatingWebhookConfiguration');
    expect(UPSTREAM_WATCHER.at(-1)).toMatchObject({ kind: 'Deployment', name: 'skr-webhook' });
    expect(UPSTREAM_WATCHER).toHaveLength(10);
  });
});
