// The functions' Prometheus metrics (each function's /metrics): per call, what the host records; process-wide, the
// gauges a function sets itself. Names follow upstream's where upstream has one, so dashboards and alerts built on
// them keep working.
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import { requestTally } from '../kube/request-tally.ts';
import { NotYetReadyError } from './errors.ts';
import { DEFAULT_STEP } from './steps.ts';
import type { EventAttributes } from './events.ts';
import type { Outcome } from './invoke.ts';

/** Gauges a function sets itself, one per process (a process may host several functions: they share it). */
const processRegistry = new Registry();

/** Upstream's `lifecycle_mgr_maintenance_window_config_read_success`: 1 when the maintenance policy was last read
 * and parsed, 0 when that failed; absent while no policy is configured (resolve-template sets it). */
export const maintenanceConfigRead = new Gauge({
  name: 'lifecycle_mgr_maintenance_window_config_read_success',
  help: 'Whether the maintenance-window policy could be read (1) or not (0).',
  registers: [processRegistry],
});

/** A module's drift checks by what they found (apply-remote, ADR 92): `unchanged` — the Manifest and its objects at the
 * versions the last call that left the module Ready saw, nothing rendered —, or `checked`: rendered and compared. */
export const moduleDriftChecks = new Counter({
  name: 'lifecycle_module_drift_checks_total',
  help: "Drift checks of a module's objects, by what they did: unchanged (stopped after reading) or checked (in full).",
  labelNames: ['found'],
  registers: [processRegistry],
});

/** A Kyma's drift checks by what they found (aggregate-status, ADR 93): `unchanged` — the Kyma, its Manifests, the
 * catalog and the runtime Kyma as the last check that found nothing to do saw them —, or `checked`: in full. */
export const kymaDriftChecks = new Counter({
  name: 'lifecycle_kyma_drift_checks_total',
  help: "Drift checks of a Kyma's status and runtime side, by what they did: unchanged (stopped after reading) or checked.",
  labelNames: ['found'],
  registers: [processRegistry],
});

/** resolve-template's drift checks that wrote no resolution, by what they found (ADR 95): `unchanged` — the Kyma, its
 * Manifests and the catalog as its last reply within 1.5 drift periods saw them, no reply —, or `replied`. */
export const resolutionDriftReplies = new Counter({
  name: 'lifecycle_resolution_drift_checks_total',
  help: "Drift checks of a Kyma's resolution that changed nothing, by what they did: unchanged (no reply) or replied.",
  labelNames: ['found'],
  registers: [processRegistry],
});

/** The Kubernetes requests counted in this process (LIFECYCLE_COUNT_REQUESTS, off by default; the bench turns it on
 * in every function process), by the calling function, API server, verb and resource: none while counting is off. */
new Counter({
  name: 'lifecycle_kube_requests_total',
  help: 'Kubernetes requests sent, by calling function, API server, verb and resource (when counting is on).',
  labelNames: ['caller', 'server', 'verb', 'resource'],
  registers: [processRegistry],
  collect() {
    this.reset();
    for (const { count, ...labels } of requestTally()) this.inc(labels, count);
  },
});

/** A call about a Manifest taking at least this long is reported (upstream's `reconcile_duration_seconds`). */
export const SLOW_RECONCILE_SECONDS = 60;

/** The metrics of one function's host, in Prometheus text format with the process-wide gauges. */
export function functionMetrics(fn: string) {
  const registry = new Registry();
  const invocations = new Counter({
    name: 'lifecycle_function_invocations_total',
    help: 'Invocations by outcome (HTTP status of the reply contract).',
    labelNames: ['fn', 'status'],
    registers: [registry],
  });
  const seconds = new Histogram({
    name: 'lifecycle_function_duration_seconds',
    help: 'Invocation duration.',
    labelNames: ['fn'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  // Upstream's requeue counter: a call answered 409/503/500 is retried (requeued) by the broker; "intended" when the
  // function asked for it (not ready yet), "unexpected" for conflicts and failures. The reason is upstream's name of the
  // step the call was in (shared/core/upstream-names.ts, ADR 40).
  const requeues = new Counter({
    name: 'lifecycle_mgr_requeue_reason_total',
    help: 'Calls the broker retries, by reason (function and error code) and type.',
    labelNames: ['requeue_reason', 'requeue_type'],
    registers: [registry],
  });
  // Upstream's slow-reconcile gauge: set while a Manifest's last call took a minute or more, removed once one is quicker.
  const slow = new Gauge({
    name: 'reconcile_duration_seconds',
    help: 'Duration of the last call about a Manifest, when it took a minute or more.',
    labelNames: ['manifest_name'],
    registers: [registry],
  });
  return {
    contentType: registry.contentType,
    scrape: () => Registry.merge([registry, processRegistry]).metrics(),
    observe(outcome: Outcome, durationSeconds: number, event?: EventAttributes) {
      invocations.inc({ fn, status: String(outcome.status) });
      seconds.observe({ fn }, durationSeconds);
      if ('error' in outcome && outcome.status >= 409 && outcome.status !== 400) {
        const reason =
          (outcome.error instanceof NotYetReadyError && outcome.error.requeueReason) ||
          outcome.step ||
          DEFAULT_STEP[fn] ||
          `${fn}_${outcome.error.code.replace(/^LCM_ERR_/, '').toLowerCase()}`;
        requeues.inc({
          requeue_reason: reason,
          requeue_type:
            outcome.status === 503 && outcome.error.code === 'LCM_ERR_NOT_YET_READY' ? 'intended' : 'unexpected',
        });
      }
      const manifest = event?.kind === 'Manifest' && typeof event.name === 'string' ? event.name : undefined;
      if (!manifest) return;
      if (durationSeconds >= SLOW_RECONCILE_SECONDS) slow.set({ manifest_name: manifest }, durationSeconds);
      else slow.remove({ manifest_name: manifest });
    },
  };
}
