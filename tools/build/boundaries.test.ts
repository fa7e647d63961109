// The layout's boundaries (ADR 34) hold and are enforced: the lint (eslint.config.js) fails on each kind of
// violation, decision code reaches no I/O even through the files it imports, and no source file imports itself back
// through others.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { closure, importsOf, ROOT, sourcesIn } from './imports.ts';

const eslint = new ESLint({ cwd: ROOT });
/** The rules a file at `path` with `text` breaks (it is linted as if it were there; nothing is written). */
async function brokenRules(path: string, text: string): Promise<(string | null)[]> {
  const [result] = await eslint.lintText(text, { filePath: `${ROOT}/${path}` });
  return (result?.messages ?? []).filter((m) => m.severity === 2).map((m) => m.ruleId);
}

describe('the boundary lint', () => {
  it.each([
    [
      'a function imports the embedded default',
      'functions/render-manifest/x.ts',
      "import { startEmbedded } from '../../local/embedded.ts';",
    ],
    ['shared/ imports a tool', 'shared/kube/x.ts', "import { plan } from '../../components/fleet/plan/plan.ts';"],
    ['a function imports another', 'functions/purge/x.ts', "import { decide } from '../apply-remote/decide.ts';"],
    ['decision code imports I/O', 'functions/purge/decide.ts', "import { readFile } from 'node:fs/promises';"],
    ['the pure domain imports a cluster client', 'shared/core/x.ts', "import { KubeClient } from '../kube/client.ts';"],
    [
      'a component imports the embedded default',
      'components/runtime-watch/x.ts',
      "import { LocalBroker } from '../../local/eventing/broker.ts';",
    ],
    [
      'a component imports a function',
      'components/runtime-watch/x.ts',
      "import { nextApplyStep } from '../../functions/apply-remote/decide.ts';",
    ],
    [
      'a component imports another',
      'components/runtime-watch/x.ts',
      "import { summarizeFleet } from '../../components/fleet/summary.ts';",
    ],
    [
      'shared/ imports a component',
      'shared/kube/x.ts',
      "import { RuntimeWatches } from '../../components/runtime-watch/runtime-watches.ts';",
    ],
    [
      'a tool imports the embedded default',
      'tools/module/x.ts',
      "import { startLocalRunner } from '../../local/runner/local-runner.ts';",
    ],
    ['the embedded default imports a test', 'local/runner/x.ts', "import { aKyma } from '../../test/builders.ts';"],
  ])(
    'fails when %s',
    async (_case, path, line) => {
      expect(await brokenRules(path, `${line}\nexport const used = [${line.match(/\{ (\w+) \}/)?.[1]}];\n`)).toContain(
        'no-restricted-imports',
      );
    },
    60_000,
  );

  it('lets a tool import local/controlplane/ (test binaries, YAML files) and a component', async () => {
    const text =
      "import { locateBinaries } from '../../local/controlplane/binaries.ts';\nimport { RuntimeWatches } from '../../components/runtime-watch/runtime-watches.ts';\nexport const used = [locateBinaries, RuntimeWatches];\n";
    expect(await brokenRules('tools/build/x.ts', text)).toEqual([]);
  }, 60_000);

  it('lets a function import shared/ and its own files', async () => {
    const text =
      "import { manifestName } from '../../shared/core/names.ts';\nimport { decide } from './decide.ts';\nexport const used = [manifestName, decide];\n";
    expect(await brokenRules('functions/render-manifest/x.ts', text)).toEqual([]);
  }, 60_000);
});

describe('the import graph', () => {
  const sources = ['functions', 'components', 'shared', 'local', 'tools', 'bench', 'test'].flatMap(sourcesIn);
  const decisionCode = sources.filter(
    (file) => file.startsWith('shared/core/') || /^functions\/[^/]+\/decide\.ts$/.test(file),
  );

  it('decision code reaches no I/O library and no cluster or registry client, not even through other files', () => {
    expect(decisionCode.length).toBeGreaterThan(10);
    const io = /^(node:|@kubernetes\/|pino$|cloudevents$)|^shared\/(kube|oci|host)\//;
    const reaching = decisionCode.flatMap((file) =>
      [...closure([file], 'values')].filter((item) => io.test(item)).map((item) => `${file} → ${item}`),
    );
    expect(reaching).toEqual([]);
  });

  it('has no cycles: no source file imports itself back through others', () => {
    const cycles: string[] = [];
    for (const file of sources) {
      const others = importsOf(file, 'values').filter((item) => item.endsWith('.ts') && item !== file);
      if ([...closure(others, 'values')].includes(file)) cycles.push(file);
    }
    expect(cycles).toEqual([]);
  });
});
