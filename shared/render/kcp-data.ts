// PURE. Upstream's deployer-module transform (`operator.kyma-project.io/inject-data-from-kcp`, ADR 40): each such
// Secret of the restricted module `deployer` gets the data of the KCP Secret of that name, which must be labelled as
// the deployer's. Messages name Secrets, never their data.
import type { Manifest } from '../core/manifest.ts';
import { ANNOTATION, LABEL } from '../core/vocabulary.ts';
import type { RuntimeObject } from './render.ts';

/** The only module whose Secrets take data from the KCP (upstream names it in its code as well). */
export const INJECTING_MODULE = 'deployer';

/** A KCP Secret as read: what the transform looks at. */
export interface KcpSecret {
  metadata: { name: string; labels?: Record<string, string> };
  data?: Record<string, string>;
}

/** Whether the Manifest's module gets KCP data: `deployer`, and only while it is a restricted module. */
export function injectsKcpData(manifest: Manifest, restrictedModules: readonly string[]): boolean {
  return (
    manifest.metadata.labels?.[LABEL.moduleName] === INJECTING_MODULE && restrictedModules.includes(INJECTING_MODULE)
  );
}

const asksForKcpData = (object: RuntimeObject) =>
  object.apiVersion === 'v1' &&
  object.kind === 'Secret' &&
  object.metadata.annotations?.[ANNOTATION.injectDataFromKcp] === 'true';

/** The names of the KCP Secrets the objects ask data from, each once. */
export function kcpSecretsWanted(objects: readonly RuntimeObject[]): string[] {
  return [...new Set(objects.filter(asksForKcpData).map((o) => o.metadata.name))];
}

/** The objects with each annotated Secret's `.data` taken from the KCP Secret of its name in `namespace` (`found`;
 * unreadable: `{ error }`) and `.stringData` removed; a KCP Secret missing, unreadable or not labelled `module-name:
 * deployer` makes the whole rendering an error naming every such Secret. */
export function withKcpData(
  objects: readonly RuntimeObject[],
  found: ReadonlyMap<string, KcpSecret | { error: string }>,
  namespace: string,
): RuntimeObject[] | { error: string } {
  const problems: string[] = [];
  const result = objects.map((object) => {
    if (!asksForKcpData(object)) return object;
    const source = found.get(object.metadata.name);
    if (!source || 'error' in source || source.metadata.labels?.[LABEL.moduleName] !== INJECTING_MODULE) {
      const where = object.metadata.namespace ? `${object.metadata.namespace}/` : '';
      problems.push(
        `Secret ${where}${object.metadata.name} asks for its data from the KCP (${ANNOTATION.injectDataFromKcp}), but ${problemOf(source, `${namespace}/${object.metadata.name}`)}`,
      );
      return object;
    }
    const copy = structuredClone(object);
    delete copy.stringData;
    copy.data = { ...source.data };
    return copy;
  });
  return problems.length ? { error: problems.join('; ') } : result;
}

function problemOf(source: KcpSecret | { error: string } | undefined, name: string): string {
  if (!source) return `the KCP has no Secret ${name}`;
  if ('error' in source) return `the KCP Secret ${name} cannot be read: ${source.error}`;
  const label = source.metadata.labels?.[LABEL.moduleName];
  const has = label === undefined ? 'has no such label' : `is labelled ${JSON.stringify(label)}`;
  return `the KCP Secret ${name} is not labelled ${LABEL.moduleName}: ${INJECTING_MODULE} (it ${has})`;
}
