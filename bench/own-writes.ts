// Which of a runtime API server's writes are the lifecycle manager's own: the rest come from the runtime's
// controllers (kube-controller-manager, scheduler, kwok) rolling the modules out — pods, replica sets, status
// updates, events, leases, node heartbeats — and a real runtime pays them too. Pure.

const CONTROLLER_RESOURCES = /^(pods|replicasets\.apps|events|events\.events\.k8s\.io|leases\.coordination\.k8s\.io|nodes|endpointslices\.discovery\.k8s\.io|controllerrevisions\.apps)(\/.*)?$|^deployments\.apps\/status$/;
const WRITES = new Set(['post', 'put', 'patch', 'apply', 'delete', 'deletecollection']);

/** Writes (by `<verb> <resource>` counts, as RequestSummary.byVerbResource) that the lifecycle manager made. */
export function ownWrites(byVerbResource: Readonly<Record<string, number>>): number {
  let own = 0;
  for (const [key, count] of Object.entries(byVerbResource)) {
    const [verb = '', resource = ''] = key.split(' ');
    if (WRITES.has(verb) && !CONTROLLER_RESOURCES.test(resource)) own += count;
  }
  return own;
}
