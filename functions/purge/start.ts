// The Knative Service entry point: serves this function on $PORT (see shared/host/serve.ts).
import { serve } from '../../shared/host/serve.ts';
import { purge } from './index.ts';

await serve(purge);
