import { describe, expect, it } from 'vitest';
import { NotYetReadyError, TransientError } from './errors.ts';
import type { EventAttributes } from './events.ts';
import { functionMetrics, maintenanceConfigRead } from './metrics.ts';
import { UPSTREAM_REQUEUE_REASONS } from '../core/upstream-names.ts';

const about = (kind: string, name: string) =>
  ({ specversion: '1.0', id: '1', source: 's', type: 't', kind, name, apiversion: 'v1' }) as unknown as EventAttributes;

describe('function metrics', () => {
  it('a Manifest call of a minute or more sets reconcile_duration_seconds; a quicker one removes it', async () => {
    const metrics = functionMetrics('apply-remote');
    metrics.observe({ status: 204 }, 75, about('Manifest', 'k1-alpha'));
    metrics.observe({ status: 204 }, 90, about('Kyma', 'k1'));
    expect(await metrics.scrape()).toContain('reconcile_duration_seconds{manifest_name="k1-alpha"} 75');
    expect(await metrics.scrape()).not.toContain('manifest_name="k1"}');
    metrics.observe({ status: 204 }, 2, about('Manifest', 'k1-alpha'));
    expect(await metrics.scrape()).not.toContain('manifest_name="k1-alpha"');
  });

  it("counts requeues under upstream's reasons (the wait's own, else the step the call was in, else the function's) and type, and serves the process-wide gauges", async () => {
    const metrics = functionMetrics('purge');
    metrics.observe({ status: 503, error: new NotYetReadyError('x') }, 0.1);
    metrics.observe({ status: 503, error: new NotYetReadyError('y', 'kyma_deletion') }, 0.1);
    metrics.observe({ status: 503, error: new TransientError('z'), step: 'remote_kyma_deletion' }, 0.1);
    maintenanceConfigRead.set(0);
    const text = await metrics.scrape();
    expect(text).toContain(
      'lifecycle_mgr_requeue_reason_total{requeue_reason="kyma_deletion",requeue_type="intended"} 2',
    );
    expect(text).toContain(
      'lifecycle_mgr_requeue_reason_total{requeue_reason="remote_kyma_deletion",requeue_type="unexpected"} 1',
    );
    const reasons = [...text.matchAll(/requeue_reason="([^"]+)"/g)].map((m) => m[1] ?? '');
    for (const reason of reasons) expect(Object.keys(UPSTREAM_REQUEUE_REASONS), reason).toContain(reason);
    expect(text).toContain('lifecycle_mgr_maintenance_window_config_read_success 0');
  });
});
