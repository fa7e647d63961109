// Exec credential plugins in kubeconfigs handed to the fleet CLI and to the manifest library's connectCluster
// (issue 21, item 4; ADR 31): refused by default, naming the field and the file, with nothing run; allowed only
// when the setting names the exact command, and then the plugin's credentials really reach the KCP. Issue 34, item 3
// (ADR 31 addendum): an allowed command runs only with the arguments and environment variable names the operator
// allowed — `bash` given `-c …` or BASH_ENV by the kubeconfig is refused and runs nothing, through the CLI,
// connectCluster and a runtime Kyma's kubeconfig Secret.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { installCrds } from '../../local/controlplane/crds.ts';
import { loadKubeConfig } from '../../local/controlplane/index.ts';
import { API_VERSION, KCP_NAMESPACE, LABEL } from '../../shared/core/vocabulary.ts';
import { connectCluster } from '../../shared/render/index.ts';
import {
  applyKyma,
  deleteKyma,
  deleteLeftoverKymas,
  kymaGone,
  kymaInState,
  manifestsOf,
  startWorld,
  type World,
} from './world.ts';
import { credentialPlugin, withExec } from './exec-plugins.ts';

const CLI = join(import.meta.dirname, '..', '..', 'tools', 'fleet', 'cli', 'main.ts');
let dir: string;
let plugin: string;
let marker: string;
let kubeconfigFile: string;
let kubeconfig: string;

interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}
const cli = (env: Record<string, string>, ...args: string[]) =>
  new Promise<CliRun>((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      { env: { ...process.env, KUBECONFIG: '', ...env } },
      (error, stdout, stderr) => {
        resolve({ code: error ? Number(error.code ?? 1) : 0, stdout, stderr });
      },
    );
  });

const BASH = '/bin/bash';
/** Files that exist only if the kubeconfig's own arguments, or its BASH_ENV, ran. */
let argsMarker: string;
let envMarker: string;
/** What the kubeconfig hands to BASH_ENV: bash sources it before running anything. */
let bashEnvFile: string;

/** The allowed plugin `/bin/bash <script>` as a kubeconfig might turn it: its own `-c` code in front (the allowed
 * script argument still there), or BASH_ENV pointing at a file that bash sources first. */
const abused = (script: string) => ({
  args: { command: BASH, args: ['-c', `touch '${argsMarker}'; exec /bin/sh "$0"`, script] },
  env: { command: BASH, args: [script], env: [{ name: 'BASH_ENV', value: bashEnvFile }] },
});

beforeAll(async () => {
  // The CLI's status lists Kymas: the KCP must serve the kind (other files install it too; applying again is a no-op).
  await installCrds(loadKubeConfig(inject('controlPlane').kcp));
  dir = await mkdtemp(join(tmpdir(), 'exec-kubeconfig-'));
  marker = join(dir, 'plugin-ran');
  plugin = join(dir, 'credential-plugin.sh');
  // The plugin hands out the KCP admin's client certificate, so an allowed plugin yields a working client.
  await credentialPlugin(plugin, marker, inject('controlPlane').kcp);
  kubeconfig = withExec(inject('controlPlane').kcp, { command: plugin });
  kubeconfigFile = join(dir, 'exec.kubeconfig');
  await writeFile(kubeconfigFile, kubeconfig, { mode: 0o600 });
  argsMarker = join(dir, 'args-ran');
  envMarker = join(dir, 'bash-env-ran');
  bashEnvFile = join(dir, 'bash-env.sh');
  await writeFile(bashEnvFile, `touch '${envMarker}'\n`);
});

afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('a kubeconfig with an exec credential plugin', () => {
  it('the fleet CLI refuses it by name, runs nothing, and quotes no credential', async () => {
    const run = await cli({ LIFECYCLE_KUBECONFIG_EXEC_COMMANDS: '' }, 'status', '--kubeconfig', kubeconfigFile);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toContain(kubeconfigFile);
    expect(run.stderr).toContain('exec credential plugin');
    expect(run.stderr).toContain('LIFECYCLE_KUBECONFIG_EXEC_COMMANDS');
    expect(run.stderr).not.toContain('BEGIN');
    expect(run.stdout).toBe('');
    expect(existsSync(marker)).toBe(false);
  });

  it('connectCluster refuses it, runs nothing; another command allowed by name does not let it through', async () => {
    await expect(connectCluster(kubeconfig)).rejects.toThrow(/exec credential plugin/);
    await expect(connectCluster(kubeconfig, { execCommands: ['/usr/bin/true'] })).rejects.toThrow(
      /exec credential plugin/,
    );
    expect(existsSync(marker)).toBe(false);
  });

  it('allowed by its exact command, the CLI and connectCluster run it and reach the KCP with its credentials', async () => {
    const run = await cli({ LIFECYCLE_KUBECONFIG_EXEC_COMMANDS: plugin }, 'status', '--kubeconfig', kubeconfigFile);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Kyma/i);
    expect(existsSync(marker)).toBe(true);

    await rm(marker);
    const cluster = await connectCluster(kubeconfig, { execCommands: [plugin] });
    const namespace = await cluster.client.get<{ metadata: { name: string } }>({
      apiVersion: 'v1',
      kind: 'Namespace',
      name: 'default',
    });
    expect(namespace?.metadata.name).toBe('default');
    expect(existsSync(marker)).toBe(true);
  });
});

describe('an allowed exec plugin given arguments or environment the operator did not allow (issue 34)', () => {
  /** `/bin/bash <plugin>` allowed with exactly that argument, and PLUGIN_NOTE as the one env name. */
  const allowed = () => ({
    LIFECYCLE_KUBECONFIG_EXEC_COMMANDS: `${plugin},${BASH} ${plugin}`,
    LIFECYCLE_KUBECONFIG_EXEC_ENV: 'PLUGIN_NOTE',
  });
  const file = async (name: string, text: string) => {
    const path = join(dir, name);
    await writeFile(path, text, { mode: 0o600 });
    return path;
  };

  it('the fleet CLI refuses its own arguments and BASH_ENV, runs nothing, quotes no value; exact arguments and an allowed name run', async () => {
    await rm(marker, { force: true }); // left by the test before, where the plugin was allowed
    const cases = [
      [
        await file('args.kubeconfig', withExec(kubeconfig, abused(plugin).args)),
        `its user's exec credential plugin (command "${BASH}") passes arguments that are not allowed; allow command and arguments exactly with LIFECYCLE_KUBECONFIG_EXEC_COMMANDS`,
      ],
      [
        await file('env.kubeconfig', withExec(kubeconfig, abused(plugin).env)),
        `its user's exec credential plugin (command "${BASH}") sets environment variables (BASH_ENV) that are not allowed; allow names with LIFECYCLE_KUBECONFIG_EXEC_ENV`,
      ],
    ] as const;
    for (const [path, message] of cases) {
      const run = await cli(allowed(), 'status', '--kubeconfig', path);
      expect(run.code, run.stderr).not.toBe(0);
      expect(run.stderr).toContain(`the kubeconfig ${path} is refused: ${message}`);
      expect(run.stderr).not.toContain(argsMarker);
      expect(run.stderr).not.toContain(bashEnvFile);
      expect(run.stdout).toBe('');
    }
    expect(existsSync(argsMarker), "the kubeconfig's own bash -c code never ran").toBe(false);
    expect(existsSync(envMarker), "the kubeconfig's BASH_ENV never ran").toBe(false);
    expect(existsSync(marker), 'the plugin itself never ran').toBe(false);

    const exact = await file(
      'exact.kubeconfig',
      withExec(kubeconfig, {
        command: BASH,
        args: [plugin],
        env: [{ name: 'PLUGIN_NOTE', value: 'from the kubeconfig' }],
      }),
    );
    const run = await cli(allowed(), 'status', '--kubeconfig', exact);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(existsSync(marker)).toBe(true);
    await rm(marker);
    // The same kubeconfig is refused when the setting does not list the name it sets.
    const unnamed = await cli({ ...allowed(), LIFECYCLE_KUBECONFIG_EXEC_ENV: '' }, 'status', '--kubeconfig', exact);
    expect(unnamed.stderr).toContain('sets environment variables (PLUGIN_NOTE) that are not allowed');
    expect(unnamed.stderr).not.toContain('from the kubeconfig');
    expect(existsSync(marker)).toBe(false);
  });

  it('connectCluster refuses its own arguments and any environment, runs nothing; exact arguments run', async () => {
    await rm(marker, { force: true });
    const execCommands = [`${BASH} ${plugin}`];
    await expect(connectCluster(withExec(kubeconfig, abused(plugin).args), { execCommands })).rejects.toThrow(
      /passes arguments that are not allowed/,
    );
    await expect(connectCluster(withExec(kubeconfig, abused(plugin).env), { execCommands })).rejects.toThrow(
      /sets environment variables \(BASH_ENV\) that are not allowed/,
    );
    await expect(
      connectCluster(withExec(kubeconfig, { command: BASH, args: [plugin, '--verbose'] }), { execCommands }),
    ).rejects.toThrow(/passes arguments that are not allowed/);
    expect(existsSync(argsMarker)).toBe(false);
    expect(existsSync(envMarker)).toBe(false);
    expect(existsSync(marker)).toBe(false);

    const cluster = await connectCluster(withExec(kubeconfig, { command: BASH, args: [plugin] }), { execCommands });
    const namespace = await cluster.client.get<{ metadata: { name: string } }>({
      apiVersion: 'v1',
      kind: 'Namespace',
      name: 'default',
    });
    expect(namespace?.metadata.name).toBe('default');
    expect(existsSync(marker)).toBe(true);
    await rm(marker);
  });

  describe("in a runtime Kyma's kubeconfig Secret", () => {
    const KYMA = 'exec-allowlist';
    let world: World;
    let runtimePlugin: string;
    let runtimeMarker: string;
    const setSecret = (text: string) =>
      world.kcp.apply(
        {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: KYMA, namespace: KCP_NAMESPACE, labels: { [LABEL.kymaName]: KYMA } },
          data: { config: Buffer.from(text).toString('base64') },
        },
        'e2e-user',
      );
    const touch = () =>
      world.kcp.mergePatch(
        { apiVersion: API_VERSION, kind: 'Kyma', namespace: KCP_NAMESPACE, name: KYMA },
        { metadata: { annotations: { 'e2e/touched': String(Date.now()) } } },
      );

    beforeAll(async () => {
      runtimeMarker = join(dir, 'runtime-plugin-ran');
      runtimePlugin = join(dir, 'runtime-plugin.sh');
      await credentialPlugin(runtimePlugin, runtimeMarker, inject('controlPlane').runtimes[0] ?? '');
      world = await startWorld({
        LIFECYCLE_KUBECONFIG_EXEC_COMMANDS: `${BASH} ${runtimePlugin}`,
        LIFECYCLE_KUBECONFIG_EXEC_ENV: 'PLUGIN_NOTE',
      });
    });

    afterAll(async () => {
      if (world) await deleteLeftoverKymas(world);
      await world?.kcp
        .delete({ apiVersion: 'v1', kind: 'Secret', namespace: KCP_NAMESPACE, name: KYMA })
        .catch(() => undefined);
      await world?.runner.stop();
    });

    it('its own arguments or BASH_ENV: Kyma Error naming the field, nothing run, no value in status or log; exact → Ready', async () => {
      const runtime = inject('controlPlane').runtimes[0] ?? '';
      await applyKyma(world, KYMA, { channel: 'regular', modules: [] });
      const cases = [
        [
          abused(runtimePlugin).args,
          'passes arguments that are not allowed; allow command and arguments exactly with LIFECYCLE_KUBECONFIG_EXEC_COMMANDS',
        ],
        [
          abused(runtimePlugin).env,
          'sets environment variables (BASH_ENV) that are not allowed; allow names with LIFECYCLE_KUBECONFIG_EXEC_ENV',
        ],
      ] as const;
      for (const [exec, message] of cases) {
        await setSecret(withExec(runtime, exec));
        await touch();
        const expected = `runtime of Kyma ${KYMA}: kubeconfig Secret ${KYMA} of Kyma ${KYMA} is refused: its user's exec credential plugin (command "${BASH}") ${message}`;
        const failed = await kymaInState(world, KYMA, 'Error', (k) => k.status?.lastOperation?.operation === expected);
        expect(JSON.stringify(failed.status)).not.toContain(argsMarker);
        expect(JSON.stringify(failed.status)).not.toContain(bashEnvFile);
      }
      await world.runner.broker.idle();
      expect(existsSync(argsMarker), "the Secret's own bash -c code never ran").toBe(false);
      expect(existsSync(envMarker), "the Secret's BASH_ENV never ran").toBe(false);
      expect(existsSync(runtimeMarker), 'the plugin itself never ran').toBe(false);
      expect(await manifestsOf(world, KYMA)).toEqual([]);
      const log = await readFile(world.logFile, 'utf8');
      expect(log).not.toContain(argsMarker);
      expect(log).not.toContain(bashEnvFile);

      await setSecret(
        withExec(runtime, {
          command: BASH,
          args: [runtimePlugin],
          env: [{ name: 'PLUGIN_NOTE', value: 'from the Secret' }],
        }),
      );
      await touch();
      await kymaInState(world, KYMA, 'Ready');
      expect(existsSync(runtimeMarker), 'the allowed plugin ran and its credentials reached the runtime').toBe(true);
      await deleteKyma(world, KYMA);
      await kymaGone(world, KYMA);
    });
  });
});
