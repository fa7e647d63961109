// What module-cli.test.ts packages and how it runs the CLI: the module's CRD, manager and default CR as a module
// author writes them, the CLI as a child process on the pinned node, the documented command of docs/modules.md.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { MODULE_AUTHOR_LOGIN } from '../secrets.ts';
import { docBashBlock } from './readme.ts';

export const CLI = join(import.meta.dirname, '../../tools/module/cli/main.ts');
export const MODULE = 'template-operator';
export const REPOSITORY = `component-descriptors/kyma-project.io/module/${MODULE}`;
export const AUTH = MODULE_AUTHOR_LOGIN;
export const CRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: samples.operator.kyma-project.io
spec:
  group: operator.kyma-project.io
  scope: Namespaced
  names: {kind: Sample, plural: samples, singular: sample, listKind: SampleList}
  versions:
    - name: v1alpha1
      served: true
      storage: true
      subresources: {status: {}}
      schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}
`;
export const MANAGER = `apiVersion: v1
kind: ConfigMap
metadata: {name: template-operator-config, namespace: kyma-system}
data: {greeting: hello from the CLI}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: template-operator-manager, namespace: kyma-system, labels: {app: template-operator}}
spec:
  replicas: 1
  selector: {matchLabels: {app: template-operator}}
  template:
    metadata: {labels: {app: template-operator}}
    spec: {containers: [{name: manager, image: europe-docker.pkg.dev/kyma-project/prod/template-operator:1.0.0}]}
`;
export const DEFAULT_CR =
  'apiVersion: operator.kyma-project.io/v1alpha1\nkind: Sample\nmetadata: {}\nspec: {resourceFilePath: ./module-data/yamls}\n';

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** The CLI as `npm run module -- …` runs it: node on main.ts, with the given environment additions. */
export function cli(args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  return new Promise((resolve) => {
    execFile(process.execPath, [CLI, ...args], { env: { ...process.env, ...env } }, (error, stdout, stderr) => {
      resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
    });
  });
}

/** The `npm run module -- …` example of a section of docs/modules.md: its flags, with the values named in `local`
 * replaced. */
export async function documentedModuleCommand(
  local: Record<string, string>,
  section = 'Packaging a module',
): Promise<string[]> {
  const block = await docBashBlock('modules.md', section);
  const command = /npm run module -- ([^>]*)>/.exec(block.replace(/\\\n/g, ' '))?.[1];
  if (!command) throw new Error(`the section "${section}" of docs/modules.md has no \`npm run module -- …\` example`);
  const args = command.trim().split(/\s+/);
  return args.map((arg, i) => local[args[i - 1] ?? ''] ?? arg);
}
