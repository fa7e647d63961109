// What the ModuleTemplate and ModuleReleaseMeta CRDs (manifests/crds/) accept, checked before anything is pushed.
// Each check returns the reason a value is refused, or '' when it is fine.
import { templateName } from '../core/templates.ts';
import { componentRepository } from '../oci/reference.ts';

/** A wrong flag value or input file: the command is refused (exit code 2) before anything is pushed. */
export class InputError extends Error {
  override readonly name = 'InputError';
}

const MODULE_NAME = /^[a-z]{3,}(-[a-z]{3,})*$/;
// semver.org 2.0.0, the recommended regular expression
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;
const CHANNEL = /^[a-z]{3,32}$/;
const COMPONENT_NAME = /^([a-z0-9]([a-z0-9-]*[a-z0-9])?\.)+[a-z]{2,}(\/[a-z0-9]([a-z0-9._-]*[a-z0-9])?)+$/;
const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
const DNS_SUBDOMAIN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const MAX_VERSION = 32;

/** A module name: a DNS-1123 label made of words of three or more lowercase letters joined by '-' (the CRD pattern). */
export function moduleNameProblem(name: string): string {
  if (MODULE_NAME.test(name) && name.length <= 63) return '';
  return 'expected words of at least 3 lowercase letters joined by "-", at most 63 characters (e.g. template-operator)';
}

/** A module version: strict semver 2.0 that can also name a ModuleTemplate (`<module>-<version>`). */
export function versionProblem(version: string, moduleName: string): string {
  const parts = SEMVER.exec(version);
  if (!parts)
    return 'expected a semantic version MAJOR.MINOR.PATCH[-PRERELEASE] without leading zeros or a "v" (e.g. 1.2.3 or 1.2.3-rc.1)';
  if (parts[5] !== undefined)
    return 'build metadata ("+…") cannot be published: ModuleTemplate versions and names allow MAJOR.MINOR.PATCH[-PRERELEASE] only';
  if (version.length > MAX_VERSION) return `expected at most ${MAX_VERSION} characters (the ModuleTemplate CRD limit)`;
  const name = templateName(moduleName, version);
  if (!DNS_SUBDOMAIN.test(name))
    return `the ModuleTemplate name ${name} would not be a valid Kubernetes name (lowercase letters, digits, "-" and "." between alphanumerics)`;
  return '';
}

export const channelProblem = (channel: string) =>
  CHANNEL.test(channel) ? '' : 'expected 3 to 32 lowercase letters (e.g. regular, fast)';

export function componentNameProblem(name: string): string {
  if (COMPONENT_NAME.test(name) && name.length <= 255 && isRepositoryPath(name)) return '';
  return 'expected a domain followed by a path, lowercase, at most 255 characters (e.g. kyma-project.io/module/template-operator)';
}

/** The OCI repository `component-descriptors/<name>` must be valid too (stricter about "." and "_" runs). */
function isRepositoryPath(componentName: string): boolean {
  try {
    return Boolean(componentRepository(componentName));
  } catch {
    return false;
  }
}

export const namespaceProblem = (namespace: string) =>
  DNS_LABEL.test(namespace) && namespace.length <= 63 ? '' : 'expected a DNS-1123 label (e.g. kcp-system)';

/** Throws an InputError naming the flag and the value when `problem` is not empty. */
export function refuse(flag: string, value: string, problem: string): void {
  if (problem) throw new InputError(`${flag} "${value}": ${problem}`);
}
