// What each step of apply-remote does (decide.ts chooses the step; index.ts runs the table).
import type { Manifest } from '../../shared/core/manifest.ts';
import { NotYetReadyError, TransientError, isRuntimeUnreachable } from '../../shared/host/errors.ts';
import type { EventAttributes } from '../../shared/host/events.ts';
import type { EventSink } from '../../shared/host/sink.ts';
import type { Logger } from '../../shared/host/logger.ts';
import { markStep } from '../../shared/host/steps.ts';
import type { KubeClient } from '../../shared/kube/client.ts';
import type { RuntimeAccess } from '../../shared/kube/runtime-clients.ts';
import { manifestOnRuntime } from '../../shared/render/render.ts';
import type { ApplyContext } from './context.ts';
import type { ApplyStep, ApplyView } from './decide.ts';
import { install } from './install.ts';
import { orphanReason, parentKyma } from './orphan.ts';
import { handOver } from './ownership.ts';
import { uninstall } from './uninstall.ts';
import { unmanage } from './unmanage.ts';
import { writeStatus } from './write-status.ts';

/** One call: what it knows (the view), and what its steps act through. */
export interface ApplyCall {
  view: ApplyView;
  ctx: ApplyContext;
  event: EventAttributes;
  sink: EventSink;
  /** "runtime of Kyma <name>" or "control-plane cluster", for messages. */
  where: string;
  /** Looks the runtime's client up (throws when its Secret is unusable). */
  access: () => Promise<RuntimeAccess>;
  /** Drops the runtime's client: the next call makes it again (ADR 18). */
  forget: () => void;
  /** The KCP read live: an orphan verdict from the cache is confirmed there. */
  live: KubeClient;
  orphanGraceMs: number;
  /** Set by ConnectRuntime: the runtime's client (none without a Secret), and the Manifest as its runtime sees it (the
   * Kyma's namespace there, docs/adr/0013). */
  runtime?: KubeClient;
  onRuntime?: Manifest;
}

type Take<S extends ApplyStep['step']> = (call: ApplyCall, step: Extract<ApplyStep, { step: S }>) => Promise<void>;

const manifestOf = (call: ApplyCall): Manifest => call.view.manifest as Manifest;
const onRuntime = (call: ApplyCall): Manifest => call.onRuntime as Manifest;
const deleting = (call: ApplyCall): boolean => Boolean(call.view.manifest?.metadata.deletionTimestamp);

export const STEPS: { [S in ApplyStep['step']]: Take<S> } = {
  // A hand-over that cannot be sent is left to the resync (the heirs' next check): never a failed call.
  HandOverObjects: async (call) => {
    const heirs = await handOver(call.ctx.manifests, call.sink, call.event).catch((error: unknown) => {
      call.ctx.log.warn({ err: String(error) }, 'hand-over not sent; the resync takes it');
      return 0;
    });
    if (heirs) call.ctx.log.info({ heirs }, 'Manifest gone: the modules that ship its objects too take them over');
    call.view.handedOver = true;
  },
  Ignore: async () => undefined,
  ConnectRuntime: async (call) => {
    markStep('sync_context_retrieval');
    try {
      const access = await call.access();
      if ('scope' in access) call.ctx.scope = access.scope;
      if ('client' in access) call.runtime = access.client;
      call.onRuntime = manifestOnRuntime(manifestOf(call), call.ctx.scope);
      call.view.access = 'client' in access ? 'usable' : { missing: access.missing };
    } catch (error) {
      call.view.access = { failed: `${call.where}: ${error instanceof Error ? error.message : String(error)}` };
    }
  },
  // A deleting Manifest waits for a usable kubeconfig (or for the Secret to go: then it lets go of the runtime),
  // Deleting and saying why — never the state it had before its deletion.
  ReportRuntimeUnusable: async (call, { message }) => {
    await writeStatus(
      call.ctx,
      manifestOf(call),
      deleting(call)
        ? { state: 'Deleting', operation: `waiting to remove the module: ${message}` }
        : { state: 'Error', operation: message },
    );
    if (deleting(call)) throw new NotYetReadyError(message, 'sync_context_retrieval');
  },
  Unmanage: (call) => unmanage(call.ctx, onRuntime(call), call.runtime),
  Uninstall: (call) => uninstall(call.ctx, onRuntime(call), call.runtime),
  RefuseTarget: (call, { message }) => writeStatus(call.ctx, manifestOf(call), { state: 'Error', operation: message }),
  ReportSecretMissing: (call, { missing }) =>
    writeStatus(call.ctx, manifestOf(call), {
      state: 'Error',
      operation: `${call.where}: access secret not found (${missing})`,
    }),
  // The Kyma comes from the watch cache; a verdict of orphan is confirmed with a live read, so a cache that lags a
  // just-created Kyma never marks its Manifests.
  CheckOrphan: async (call) => {
    const manifest = onRuntime(call);
    const verdict = async (kcp: KubeClient) =>
      orphanReason(manifest, await parentKyma(kcp, manifest), Date.now(), call.orphanGraceMs);
    call.view.orphan = (await verdict(call.ctx.kcp)) && (await verdict(call.live));
  },
  ReportOrphan: async (call, { message }) => {
    markStep('manifest_orphaned');
    await writeStatus(call.ctx, onRuntime(call), { state: 'Error', operation: message });
  },
  Install: (call) => install(call.ctx, onRuntime(call), call.runtime as KubeClient),
};

/** Steps that act on the runtime: an unreachable runtime becomes an Error (or Deleting) status and a retry. */
const ON_RUNTIME: ReadonlySet<ApplyStep['step']> = new Set([
  'Unmanage',
  'Uninstall',
  'RefuseTarget',
  'ReportSecretMissing',
  'CheckOrphan',
  'ReportOrphan',
  'Install',
]);

/** Takes `step` with its own log field; a step on the runtime that finds it unreachable or failing drops its client. */
export async function take(call: ApplyCall, step: ApplyStep, log: Logger): Promise<void> {
  call.ctx.log = log.child({ step: step.step });
  const run = () => (STEPS[step.step] as (call: ApplyCall, step: ApplyStep) => Promise<void>)(call, step);
  if (!ON_RUNTIME.has(step.step)) return run();
  try {
    await run();
  } catch (error) {
    if (isRuntimeUnreachable(error)) {
      call.forget();
      const message = `${call.where} unreachable: ${error instanceof Error ? error.message : String(error)}`;
      await writeStatus(
        call.ctx,
        manifestOf(call),
        deleting(call)
          ? { state: 'Deleting', operation: `waiting to remove the module: ${message}` }
          : { state: 'Error', operation: message },
      );
      throw new TransientError(message, error);
    }
    if (error instanceof TransientError) {
      call.forget();
      throw new TransientError(`${call.where}: ${error.message}`, error);
    }
    throw error;
  }
}
