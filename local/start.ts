// `npm start`: the lifecycle manager on the embedded local control plane, or against the cluster of KUBECONFIG
// (local/main.ts), run from its bundle (local/launch.ts, ADR 44).
import { launch } from './launch.ts';

await launch('local/main.ts');
