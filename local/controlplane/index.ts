export { locateBinaries, BINARY_NAMES, type Binaries } from './binaries.ts';
export { startCluster, type Cluster, type ClusterOptions } from './cluster.ts';
export {
  startControlPlane,
  reapStaleRuns,
  defaultRunRoot,
  type ControlPlane,
  type ControlPlaneOptions,
} from './control-plane.ts';
export { startRegistry, type Registry } from './registry.ts';
export { loadKubeConfig, renderKubeconfig } from './kubeconfig.ts';
export { FAKE_NODE } from './workloads.ts';
