// The Knative Service entry point: serves this function on $PORT (see shared/runtime/serve.ts).
import { serve } from '../../shared/runtime/serve.ts';
import { purge } from './index.ts';

await serve(purge);
