import type { RuntimeScope } from '../../shared/core/runtime-scope.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import type { ListedReads } from '../../shared/kube/listed-reads.ts';
import type { EventRecorder } from '../../shared/kube/events.ts';
import type { OwnWrites } from '../../shared/kube/own-writes.ts';
import type { Logger } from '../../shared/host/logger.ts';
import type { ChartRenderer } from '../../shared/render/charts.ts';
import type { LayerCache } from '../../shared/oci/layer.ts';
import type { Rollouts } from './rollout.ts';
import type { RolloutWatch } from './rollout-watch.ts';
import type { KcpSecrets } from '../../shared/render/target.ts';
import type { SettledModules } from './settled.ts';
import type { Announce } from '../../shared/host/announce.ts';

export interface ApplyContext {
  kcp: KubeClient;
  /** The KCP's Manifests from the watch cache (the other modules of a Kyma, ADR 33). */
  manifests: KubeClient;
  layers: LayerCache;
  /** Modules made of Helm charts (spec.installs, ADR 22). */
  charts: ChartRenderer;
  log: Logger;
  /** Events about the Manifest (its state changes). */
  events: EventRecorder;
  /** The runtime image pull Secret every module workload gets (LIFECYCLE_RUNTIME_IMAGE_PULL_SECRET), if any. */
  pullSecret: string | undefined;
  /** Where the restricted deployer's Secrets take their data from (kcp-data.ts). */
  kcpSecrets: KcpSecrets;
  /** Modules still rolling out: their retries re-read the workload only (rollout.ts). */
  rollouts: Rollouts;
  /** A module's workload watched roll out in the call before it writes Processing and retries (ADR 61). */
  rolloutWatch: RolloutWatch;
  /** The Manifest versions this instance's guarded status writes produced: their update events are skipped (ADR 25). */
  written: OwnWrites;
  /** Sends the API server's event about a status write made in the user lane at once (ADR 73). */
  announce: Announce;
  /** A resync event: sync in full (drift repair), whatever the rollout memo says. */
  force: boolean;
  /** The resync's drift period: a drift check reads the runtime namespace every other one (ADR 90). */
  driftPeriodMs: number;
  /** Modules a call found as desired and Ready, at the versions it found them (ADR 92). */
  settled: SettledModules;
  /** On a drift check: the module's objects read through lists a Kyma's modules share (ADR 57). */
  listed?: ListedReads;
  /** Where this Kyma's objects live on its runtime (docs/adr/0013); the whole runtime unless the Secret says otherwise. */
  scope: RuntimeScope;
}
