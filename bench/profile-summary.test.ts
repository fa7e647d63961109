import { describe, expect, it } from 'vitest';
import { areaOf, summarizeProfile, summaryText, type CpuProfile } from './profile-summary.ts';

const frame = (functionName: string, url = '', lineNumber = 0) => ({ functionName, url, lineNumber });

describe('a CPU profile summarized', () => {
  const profile: CpuProfile = {
    nodes: [
      { id: 1, callFrame: frame('(root)'), children: [2, 3, 4, 5] },
      { id: 2, callFrame: frame('(idle)') },
      { id: 3, callFrame: frame('jsonCopy', 'file:///work/main/shared/kube/json-copy.ts', 2) },
      { id: 4, callFrame: frame('parse', 'file:///work/main/node_modules/@scope/pkg/dist/index.js', 9) },
      { id: 5, callFrame: frame('emit', 'node:events', 464) },
    ],
    samples: [2, 2, 3, 3, 3, 3, 4, 5, 99],
  };

  it('ranks functions by self time, naming file and 1-based line, and counts every sample in the total', () => {
    const summary = summarizeProfile(profile, 2);
    expect(summary.samples).toBe(9);
    expect(summary.functions).toEqual([
      { name: 'jsonCopy kube/json-copy.ts:3', share: 4 / 9 },
      { name: '(idle)', share: 2 / 9 },
    ]);
  });

  it('groups by area: our folders two deep, packages with their scope, Node modules, V8 entries by name', () => {
    const areas = summarizeProfile(profile).areas.map((a) => a.name);
    expect(areas).toEqual(['shared/kube', '(idle)', 'node_modules/@scope/pkg', 'node:events']);
    expect(areaOf('file:///x/functions/apply-remote/sync.ts', 'f')).toBe('functions/apply-remote');
    expect(areaOf('node:internal/http2/core', 'f')).toBe('node:internal/http2');
    expect(areaOf('', '')).toBe('(native)');
  });

  it('prints shares in percent, one line each', () => {
    const text = summaryText(summarizeProfile(profile, 1));
    expect(text.split('\n')).toEqual([
      '9 samples',
      'self time by function:',
      ' 44.4 %  jsonCopy kube/json-copy.ts:3',
      'self time by area:',
      ' 44.4 %  shared/kube',
    ]);
  });

  it('an empty profile has no shares, not NaN', () => {
    expect(summarizeProfile({ nodes: [], samples: [] })).toEqual({ samples: 0, functions: [], areas: [] });
  });
});
