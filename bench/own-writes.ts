// Which of an API server's requests are the lifecycle manager's own. On a runtime the rest come from its controllers
// (kube-controller-manager, scheduler, kwok) rolling the modules out — pods, replica sets, status updates, events,
// leases, node heartbeats — and a real runtime pays them too. On the KCP only leases are someone else's (Events there
// are ours). The bench's own writes (each Kyma and its kubeconfig Secret, the edits) are subtracted by the caller. Pure.

/** Resources only the runtime's controllers write or read per request (they watch everything else). */
export const RUNTIME_CONTROLLERS =
  /^(pods|replicasets\.apps|events|events\.events\.k8s\.io|leases\.coordination\.k8s\.io|nodes|endpointslices\.discovery\.k8s\.io|controllerrevisions\.apps)(\/.*)?$|^deployments\.apps\/status$/;
export const KCP_CONTROLLERS = /^leases\.coordination\.k8s\.io(\/.*)?$/;
/** With Knative Eventing on the KCP (bench --engine knative): also its own resources (Brokers, Triggers, sources,
 * channels) and what the local kubelet and Service proxy read (Deployments, Services, ConfigMaps; the functions read none
 * of these on the KCP). */
export const KNATIVE_KCP_CONTROLLERS =
  /^(leases\.coordination\.k8s\.io|[a-z]+\.[a-z.]*knative\.dev|deployments\.apps|services|configmaps)(\/.*)?$/;
const WRITES = new Set(['post', 'put', 'patch', 'apply', 'delete', 'deletecollection']);

/** Writes (by `<verb> <resource>` counts, as RequestSummary.byVerbResource) that the lifecycle manager made. */
export function ownWrites(byVerbResource: Readonly<Record<string, number>>, controllers = RUNTIME_CONTROLLERS): number {
  return own(byVerbResource, controllers, (verb) => WRITES.has(verb));
}

/** Requests of any verb the lifecycle manager made: all but those on the controllers' resources. Discovery
 * (`/api`, `/openapi/v3`) counts as ours, so the figure is an upper bound. */
export function ownRequests(
  byVerbResource: Readonly<Record<string, number>>,
  controllers = RUNTIME_CONTROLLERS,
): number {
  return own(byVerbResource, controllers, () => true);
}

/** WATCHes the lifecycle manager opened (its runtime watches and rollout watches; ADR 61, 64). */
export function ownWatches(
  byVerbResource: Readonly<Record<string, number>>,
  controllers = RUNTIME_CONTROLLERS,
): number {
  return own(byVerbResource, controllers, (verb) => verb === 'watch');
}

function own(
  byVerbResource: Readonly<Record<string, number>>,
  controllers: RegExp,
  counts: (verb: string) => boolean,
): number {
  let total = 0;
  for (const [key, count] of Object.entries(byVerbResource)) {
    const [verb = '', resource = ''] = key.split(' ');
    if (counts(verb) && !controllers.test(resource)) total += count;
  }
  return total;
}
