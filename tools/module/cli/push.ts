import { isRegistryError } from '../../../shared/oci/errors.ts';
import { componentRepository } from '../../../shared/oci/reference.ts';
import type { RegistryClient } from '../../../shared/oci/registry.ts';
import { pushModule, type ModulePackage, type PushedModule } from '../package.ts';

/** The component version exists and may not be replaced: versions are immutable (functions cache them by version). */
export class VersionExistsError extends Error {
  override readonly name = 'VersionExistsError';
}

/** Pushes the component version unless the registry already has it (then only with `overwrite`). */
export async function pushNewVersion(
  client: RegistryClient,
  pkg: ModulePackage,
  overwrite: boolean,
): Promise<PushedModule> {
  if (!overwrite && (await versionExists(client, pkg))) {
    throw new VersionExistsError(
      `${client.host}/${componentRepository(pkg.componentName)}:${pkg.tag} already exists: ` +
        'component versions are immutable (the lifecycle manager caches them by version); publish a new --version, or pass --overwrite',
    );
  }
  return pushModule(client, pkg);
}

async function versionExists(client: RegistryClient, pkg: ModulePackage): Promise<boolean> {
  try {
    await client.getManifest(componentRepository(pkg.componentName), pkg.tag);
    return true;
  } catch (error) {
    if (isRegistryError(error, 'NotFound')) return false;
    throw error;
  }
}

/** PURE. One line for a failed push; RegistryError messages carry no credentials (shared/oci/errors.ts). */
export function registryFailure(error: unknown, host: string): string {
  const message = error instanceof Error ? error.message : String(error);
  if (error instanceof VersionExistsError) return message;
  if (isRegistryError(error, 'Unauthorized')) {
    return `registry ${host} refused access: ${message}; check --credentials-file or MODULE_REGISTRY_USERNAME/MODULE_REGISTRY_PASSWORD`;
  }
  if (isRegistryError(error, 'Unavailable'))
    return `${message}; check --registry, and --plain-http for a registry without TLS`;
  return `push to registry ${host} failed: ${message}`;
}
