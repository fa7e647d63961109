#!/usr/bin/env node
// `npx kyma-lifecycle-functions status|why …`: the fleet CLI. Everything but the process wiring is in command.ts.
import { readConfig } from '../../../shared/host/config.ts';
import { runFleetCommand } from './command.ts';

process.exitCode = await runFleetCommand(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (line) => process.stderr.write(`${line}\n`),
  kubeconfigEnv: readConfig().kubeconfigPath,
});
