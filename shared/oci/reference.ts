import { badContent } from './errors.ts';

/** `host[:port]/repository[:tag][@sha256:…]` — an artifact in an OCI registry. */
export interface OciReference {
  host: string;
  repository: string;
  tag?: string;
  digest?: string;
}

// distribution-spec v1.1: repository name and tag grammar
const REPOSITORY = /^[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*(?:\/[a-z0-9]+(?:(?:\.|_|__|-+)[a-z0-9]+)*)*$/;
const TAG = /^[a-zA-Z0-9_][a-zA-Z0-9._-]{0,127}$/;
const SHA256 = /^sha256:[a-f0-9]{64}$/;
const HOST =
  /^(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?)*|\[[0-9a-fA-F:.]+\])(?::[0-9]{1,5})?$/;

export const isValidRepository = (name: string) => name.length <= 255 && REPOSITORY.test(name);
export const isValidTag = (tag: string) => TAG.test(tag);
/** Only sha256 digests are supported (the only algorithm registries and OCM use in practice). */
export const isValidDigest = (digest: string) => SHA256.test(digest);
export const isValidHost = (host: string) => HOST.test(host);

export function parseReference(text: string): OciReference {
  const [name = '', digest, ...extra] = text.split('@');
  const slash = name.indexOf('/');
  if (extra.length || slash <= 0)
    throw badContent(`invalid OCI reference "${text}": expected host/repository[:tag][@digest]`);
  const host = name.slice(0, slash);
  const path = name.slice(slash + 1);
  const colon = path.lastIndexOf(':');
  const repository = colon < 0 ? path : path.slice(0, colon);
  const tag = colon < 0 ? undefined : path.slice(colon + 1);
  if (!isValidHost(host)) throw badContent(`invalid registry host in OCI reference "${text}"`);
  if (!isValidRepository(repository)) throw badContent(`invalid repository name in OCI reference "${text}"`);
  if (tag !== undefined && !isValidTag(tag)) throw badContent(`invalid tag in OCI reference "${text}"`);
  if (digest !== undefined && !isValidDigest(digest)) throw badContent(`invalid digest in OCI reference "${text}"`);
  if (tag === undefined && digest === undefined) throw badContent(`OCI reference "${text}" has neither tag nor digest`);
  return { host, repository, ...(tag === undefined ? {} : { tag }), ...(digest === undefined ? {} : { digest }) };
}

export function formatReference(ref: OciReference): string {
  return `${ref.host}/${ref.repository}${ref.tag === undefined ? '' : `:${ref.tag}`}${ref.digest === undefined ? '' : `@${ref.digest}`}`;
}

/** OCM maps a version to a tag by replacing the semver build separator: `1.0.0+abc` → `1.0.0.build-abc`. */
export function ocmTag(version: string): string {
  const tag = version.replaceAll('+', '.build-');
  if (!isValidTag(tag)) throw badContent(`component version "${version}" cannot be mapped to an OCI tag`);
  return tag;
}

/** The repository of a component under the OCM `urlPath` name mapping. */
export function componentRepository(componentName: string): string {
  const repository = `component-descriptors/${componentName}`;
  if (!isValidRepository(repository))
    throw badContent(`component name "${componentName}" is not a valid repository path`);
  return repository;
}
