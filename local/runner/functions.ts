import { aggregateStatus } from '../../functions/aggregate-status/index.ts';
import { applyRemote } from '../../functions/apply-remote/index.ts';
import { renderManifest } from '../../functions/render-manifest/index.ts';
import { resolveTemplate } from '../../functions/resolve-template/index.ts';
import { purge } from '../../functions/purge/index.ts';
import { resync } from '../../functions/resync/index.ts';
import type { FunctionDeps } from '../../shared/host/deps.ts';
import type { LifecycleFunction } from '../../shared/host/invoke.ts';

/** Every lifecycle function by its Knative Service name (the Trigger subscriber names). */
export const FUNCTIONS: Record<string, (deps: FunctionDeps) => LifecycleFunction> = {
  'resolve-template': resolveTemplate,
  'render-manifest': renderManifest,
  'apply-remote': applyRemote,
  'aggregate-status': aggregateStatus,
  purge,
  resync,
};
