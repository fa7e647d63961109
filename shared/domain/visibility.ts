import type { Kyma } from './kyma.ts';
import type { ModuleTemplate } from './templates.ts';
import { LABEL } from './vocabulary.ts';

/** Why a template may not be installed or shown for this Kyma (beta/internal without the Kyma's opt-in), or ''. */
export function visibilityProblem(kyma: Kyma, template: ModuleTemplate): string {
  const allows = (label: string) => template.metadata.labels?.[label]?.toLowerCase() !== 'true'
    || kyma.metadata.labels?.[label]?.toLowerCase() === 'true';
  const name = template.metadata.name;
  if (!allows(LABEL.internal)) return `ModuleTemplate ${name} is internal and Kyma ${kyma.metadata.name} does not enable internal modules (label ${LABEL.internal}: "true")`;
  if (!allows(LABEL.beta)) return `ModuleTemplate ${name} is beta and Kyma ${kyma.metadata.name} does not enable beta modules (label ${LABEL.beta}: "true")`;
  return '';
}

/** A module with a kymaSelector is restricted: shown only to Kymas whose labels match it (a nil or empty selector never matches). */
export function selectorMatches(kyma: Pick<Kyma, 'metadata'>, selector: { matchLabels?: Record<string, string> } | undefined): boolean {
  const wanted = Object.entries(selector?.matchLabels ?? {});
  return wanted.length > 0 && wanted.every(([k, v]) => kyma.metadata.labels?.[k] === v);
}

/** Why a restricted module (its ModuleReleaseMeta has a kymaSelector) may not be installed on this Kyma, or ''. */
export function restrictionProblem(kyma: Pick<Kyma, 'metadata'>, module: string, selector: { matchLabels?: Record<string, string> } | undefined): string {
  if (!selector || selectorMatches(kyma, selector)) return '';
  return `module ${module} is restricted and Kyma ${kyma.metadata.name} does not match its kymaSelector`;
}
