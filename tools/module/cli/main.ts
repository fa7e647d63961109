// `npm run module -- …` (node tools/module/cli/main.ts): package a module version, push it, print its ModuleTemplate
// and ModuleReleaseMeta. Everything but the process wiring is in command.ts.
import { readModuleRegistryLogin } from '../../../shared/host/config.ts';
import { runModuleCommand } from './command.ts';

process.exitCode = await runModuleCommand(process.argv.slice(2), {
  stdout: (text) => process.stdout.write(text),
  stderr: (line) => process.stderr.write(`${line}\n`),
  login: readModuleRegistryLogin(),
});
