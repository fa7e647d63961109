import { templateName } from '../../../shared/core/templates.ts';
import { RegistryClient } from '../../../shared/oci/registry.ts';
import { packageModule } from '../package.ts';
import { parseRequest, type PackageRequest } from './args.ts';
import { registryCredentials, type RegistryLogin } from './credentials.ts';
import { HELP } from './help.ts';
import { readModuleInput } from './content.ts';
import { readDefaultCr } from './inputs.ts';
import { pushNewVersion, registryFailure } from './push.ts';
import { publishedYaml } from './render.ts';
import { InputError } from '../../../shared/host/input-rules.ts';

/** Where the command writes: the YAML (stdout), progress and errors one line each (stderr); and the login from the environment. */
export interface CommandIo {
  stdout: (text: string) => void;
  stderr: (line: string) => void;
  login: RegistryLogin;
}

/** `npm run module -- …`: the exit code (0 published, 1 registry failure, 2 refused input; nothing is pushed on 2). */
export async function runModuleCommand(argv: string[], io: CommandIo): Promise<number> {
  let request: PackageRequest | 'help' | undefined;
  try {
    request = parseRequest(argv);
    if (request === 'help') io.stdout(HELP);
    else await publish(request, io);
    return 0;
  } catch (error) {
    if (error instanceof InputError) io.stderr(`error: ${error.message}`);
    else io.stderr(`error: ${registryFailure(error, typeof request === 'object' ? request.registry.host : '?')}`);
    return error instanceof InputError ? 2 : 1;
  }
}

async function publish(request: PackageRequest, io: CommandIo): Promise<void> {
  const module = await readModuleInput(request);
  const defaultCr = request.defaultCrPath ? await readDefaultCr(request.defaultCrPath) : undefined;
  const credentials = await registryCredentials(request.credentialsFile, io.login, request.registry.host);
  const pkg = packageModule({
    componentName: request.componentName,
    version: request.version,
    ...module.install,
    ...(defaultCr ? { defaultCr } : {}),
    registryBaseUrl: request.registry.host,
  });
  io.stderr(
    `packaged ${request.componentName}:${request.version}: ${module.summary}${defaultCr ? `, default CR ${defaultCr.kind}` : ', no default CR'}`,
  );
  const client = new RegistryClient({ ...request.registry, credentials });
  const pushed = await pushNewVersion(client, pkg, request.overwrite);
  const layer = pushed.chartDigest ? `helm-chart ${pushed.chartDigest}` : `raw-manifest ${pushed.rawManifestDigest}`;
  io.stderr(`pushed ${client.host}/${pushed.repository}:${pushed.tag} (manifest ${pushed.manifestDigest}, ${layer})`);
  io.stdout(publishedYaml({ request, pkg, objects: module.objects, defaultCr }));
  const channels = request.channels.map((c) => `${c.channel}=${c.version}`).join(', ');
  io.stderr(
    `printed ModuleTemplate ${request.namespace}/${templateName(request.name, request.version)} and ModuleReleaseMeta ${request.namespace}/${request.name} (${channels}); apply them to the KCP with kubectl apply -f`,
  );
}
