// The secrets the integration suite hands to the system under test, in one place, so that secret-hygiene.test.ts
// can look for every one of them (and for the forms they travel in: base64 of user:password, the token's signature).
import { inject } from 'vitest';

/** The private module registry's login (private-registry.test.ts). */
export const REGISTRY_LOGIN = { username: 'robot', password: 'pr1vate-registry-pa55' };
/** The module author's login of the module CLI's registry (module-cli.test.ts). */
export const MODULE_AUTHOR_LOGIN = { username: 'author', password: 'm0dule-pa55word' };

/** Each known secret by name, with the encodings it is stored or sent in. */
export function knownSecrets(): Record<string, string> {
  const token = inject('controlPlane').runtimeToken;
  const basic = (login: { username: string; password: string }) =>
    Buffer.from(`${login.username}:${login.password}`).toString('base64');
  return {
    'runtime kubeconfig token': token,
    'runtime kubeconfig token (base64)': Buffer.from(token).toString('base64'),
    'registry password': REGISTRY_LOGIN.password,
    'registry basic auth': basic(REGISTRY_LOGIN),
    'module author password': MODULE_AUTHOR_LOGIN.password,
    'module author basic auth': basic(MODULE_AUTHOR_LOGIN),
  };
}
