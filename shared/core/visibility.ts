import type { Kyma } from './kyma.ts';
import type { LabelSelector, ModuleTemplate } from './templates.ts';
import { LABEL } from './vocabulary.ts';

/** Why a template may not be installed or shown for this Kyma (beta/internal without the Kyma's opt-in), or ''. */
export function visibilityProblem(kyma: Kyma, template: ModuleTemplate): string {
  const allows = (label: string) =>
    template.metadata.labels?.[label]?.toLowerCase() !== 'true' ||
    kyma.metadata.labels?.[label]?.toLowerCase() === 'true';
  const name = template.metadata.name;
  if (!allows(LABEL.internal))
    return `ModuleTemplate ${name} is internal and Kyma ${kyma.metadata.name} does not enable internal modules (label ${LABEL.internal}: "true")`;
  if (!allows(LABEL.beta))
    return `ModuleTemplate ${name} is beta and Kyma ${kyma.metadata.name} does not enable beta modules (label ${LABEL.beta}: "true")`;
  return '';
}

/** PURE. Whether the Kyma's labels match a Kubernetes label selector (matchLabels and matchExpressions with In,
 * NotIn, Exists, DoesNotExist; an unknown operator never matches). A nil or empty selector never matches (upstream). */
export function selectorMatches(kyma: Pick<Kyma, 'metadata'>, selector: LabelSelector | undefined): boolean {
  const labels = kyma.metadata.labels ?? {};
  const pairs = Object.entries(selector?.matchLabels ?? {});
  const expressions = selector?.matchExpressions ?? [];
  if (pairs.length + expressions.length === 0) return false;
  return (
    pairs.every(([k, v]) => labels[k] === v) &&
    expressions.every((e) => {
      const value = labels[e.key];
      switch (e.operator) {
        case 'In':
          return value !== undefined && (e.values ?? []).includes(value);
        case 'NotIn':
          return value === undefined || !(e.values ?? []).includes(value);
        case 'Exists':
          return value !== undefined;
        case 'DoesNotExist':
          return value === undefined;
        default:
          return false;
      }
    })
  );
}

/** PURE. Why a restricted module (LIFECYCLE_RESTRICTED_MODULES) may not be installed on nor shown to this Kyma, or '':
 * a listed module only where its kymaSelector matches the Kyma (none or an empty one never matches); a module not
 * listed whose ModuleReleaseMeta has a kymaSelector nowhere. */
export function restrictionProblem(
  kyma: Pick<Kyma, 'metadata'>,
  module: string,
  selector: LabelSelector | undefined,
  restricted: readonly string[],
): string {
  const listed = restricted.includes(module);
  if (!listed)
    return selector
      ? `module ${module} is not a restricted module (LIFECYCLE_RESTRICTED_MODULES) but its ModuleReleaseMeta has a kymaSelector: not allowed`
      : '';
  if (selectorMatches(kyma, selector)) return '';
  return `module ${module} is restricted and Kyma ${kyma.metadata.name} does not match its kymaSelector`;
}
