// PURE. The finalizers a Manifest carries while its module is installed. render-manifest sets them when it creates
// the Manifest (one write instead of a create and a patch, ADR 26); apply-remote adds any that are missing (older
// Manifests, or a default CR a new version brought) before anything reaches the runtime.
import type { Manifest } from './manifest.ts';
import { FINALIZER } from './vocabulary.ts';

/** Whether the Manifest installs a default CR (policy CreateAndDelete with `spec.resource`). */
export const hasDefaultCr = (m: Manifest): boolean =>
  (m.spec?.customResourcePolicy ?? 'CreateAndDelete') === 'CreateAndDelete' && Boolean(m.spec?.resource);

/** The lifecycle finalizers an installed Manifest needs. */
export const installFinalizers = (m: Manifest): string[] => [
  FINALIZER.declarative,
  FINALIZER.labelRemoval,
  ...(hasDefaultCr(m) ? [FINALIZER.resource] : []),
];

const OURS: readonly string[] = [FINALIZER.declarative, FINALIZER.labelRemoval, FINALIZER.resource];

/** The finalizers render-manifest's write of `desired` carries: all it needs on creation; on an update exactly the
 * lifecycle finalizers stored now, so the write neither drops one nor adds back one that was just removed. */
export function renderedFinalizers(stored: Manifest | undefined, desired: Manifest): string[] {
  return stored ? (stored.metadata.finalizers ?? []).filter((f) => OURS.includes(f)) : installFinalizers(desired);
}
