import { describe, expect, it } from 'vitest';
import { RegistryError } from '../../../shared/oci/errors.ts';
import { registryFailure, VersionExistsError } from './push.ts';

describe('registryFailure', () => {
  it.each([
    [
      new RegistryError('Unauthorized', 'blob upload r.example/x: HTTP 401 UNAUTHORIZED'),
      'registry r.example refused access: blob upload r.example/x: HTTP 401 UNAUTHORIZED; check --credentials-file or MODULE_REGISTRY_USERNAME/MODULE_REGISTRY_PASSWORD',
    ],
    [
      new RegistryError('Unavailable', 'manifest r.example/x:1.0.0: registry unreachable (ECONNREFUSED)'),
      'manifest r.example/x:1.0.0: registry unreachable (ECONNREFUSED); check --registry, and --plain-http for a registry without TLS',
    ],
    [
      new RegistryError('TooLarge', 'manifest r.example/x:1.0.0: HTTP 413'),
      'push to registry r.example failed: manifest r.example/x:1.0.0: HTTP 413',
    ],
    [new VersionExistsError('r.example/x:1.0.0 already exists: …'), 'r.example/x:1.0.0 already exists: …'],
  ])('says what failed and what to check: %s', (error, line) => {
    expect(registryFailure(error, 'r.example')).toBe(line);
  });
});
