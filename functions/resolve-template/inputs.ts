// What a Kyma's own object says about resolve-template's work, read from an API server event's data before any read
// (ADR 66): most Kyma updates are status writes (aggregate-status's, resolve-template's own) that change no input.
import { canonicalJson } from '../../shared/core/canonical.ts';
import { fnv1Hash32 } from '../../shared/core/names.ts';

/** PURE. A digest of the Kyma's own inputs to its resolution — its spec (generation), labels, annotations,
 * finalizers and deletion; the catalog and the runtime's module list reach resolve-template by events of their own. */
export function inputsOf(metadata: object): string {
  const { generation, labels, annotations, finalizers, deletionTimestamp } = metadata as Record<string, unknown>;
  const text = canonicalJson({ generation, labels, annotations, finalizers, deletionTimestamp });
  const hex = (n: number) => n.toString(16).padStart(8, '0');
  return `${hex(fnv1Hash32(text))}${hex(fnv1Hash32(`inputs/${text}`))}`;
}

export type Settled = 'deleting' | 'inputs resolved already';

/** PURE. Whether an API server add or update (`change`) of a Kyma (the event's data) leaves nothing to do: deleting
 * (purge's work), or an update whose `status.specSource.inputs` is the digest of its own inputs: resolved already.
 * Anything else (resync, fan-out, delete, an add not deleting, data of another shape): undefined. */
export function settledByEvent(change: 'add' | 'update' | undefined, data: unknown): Settled | undefined {
  if (!change) return undefined;
  const object = recordOf(data);
  const metadata = recordOf(object?.metadata);
  if (!object || !metadata) return undefined;
  if (metadata.deletionTimestamp) return 'deleting';
  const recorded = recordOf(recordOf(object.status)?.specSource)?.inputs;
  return change === 'update' && typeof recorded === 'string' && recorded === inputsOf(metadata)
    ? 'inputs resolved already'
    : undefined;
}

const recordOf = (value: unknown): Record<string, unknown> | undefined =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
