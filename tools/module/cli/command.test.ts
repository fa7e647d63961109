import { describe, expect, it } from 'vitest';
import { runModuleCommand } from './command.ts';

async function run(argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runModuleCommand(argv, {
    stdout: (t) => out.push(t),
    stderr: (l) => err.push(l),
    login: { username: undefined, password: undefined },
  });
  return { code, stdout: out.join(''), stderr: err };
}

describe('runModuleCommand', () => {
  it('prints the help on stdout with every flag', async () => {
    const { code, stdout, stderr } = await run(['--help']);
    expect(code).toBe(0);
    expect(stderr).toEqual([]);
    for (const flag of [
      '--name',
      '--version',
      '--manifest',
      '--default-cr',
      '--registry',
      '--plain-http',
      '--component-name',
      '--channel',
      '--namespace',
      '--credentials-file',
      '--beta',
      '--internal',
      '--requires-downtime',
      '--overwrite',
      'MODULE_REGISTRY_USERNAME',
      '--chart',
      '--values',
      '--crds',
      'application/vnd.cncf.helm.chart.content.v1.tar+gzip',
    ]) {
      expect(stdout).toContain(flag);
    }
  });

  it.each([
    [['--name', 'x1'], '--name "x1"'],
    [['--name', 'abc', '--version', '1.0', '--manifest', 'm.yaml', '--registry', 'r.example'], '--version "1.0"'],
    [
      ['--name', 'abc', '--version', '1.0.0', '--manifest', '/no/such/manifest.yaml', '--registry', 'r.example'],
      '--manifest "/no/such/manifest.yaml"',
    ],
    [
      ['--name', 'abc', '--version', '1.0.0', '--chart', '/no/such/chart', '--registry', 'r.example'],
      '--chart "/no/such/chart": no such file or directory (expected a chart directory or a packaged chart .tgz)',
    ],
  ])('refuses %j with exit code 2, one error line and nothing on stdout', async (argv, message) => {
    const { code, stdout, stderr } = await run(argv);
    expect(code).toBe(2);
    expect(stdout).toBe('');
    expect(stderr).toEqual([
      expect.stringMatching(new RegExp(`^error: ${message.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}`)),
    ]);
  });
});
