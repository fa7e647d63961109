import { describe, expect, it } from 'vitest';
import type { KymaStatus } from '../../shared/core/kyma.ts';
import { mirroredStatus, mirrorRead, statusPatch } from './mirror.ts';

const status: KymaStatus = {
  state: 'Ready',
  lastOperation: { operation: 'kyma is ready', lastUpdateTime: '2026-11-27T08:00:00Z' },
  conditions: [{ type: 'Modules', status: 'True', reason: 'Ready', message: 'all modules are in ready state' }],
  modules: [
    {
      name: 'sample',
      state: 'Ready',
      manifest: { apiVersion: 'v', kind: 'Manifest', metadata: { name: 'm', namespace: 'kcp-system' } },
      template: { apiVersion: 'v', kind: 'ModuleTemplate', metadata: { name: 't', namespace: 'kcp-system' } },
    },
  ],
};

describe('mirroredStatus', () => {
  it('points template refs at the runtime copies and leaves Manifest refs out', () => {
    const mirrored = mirroredStatus(status);
    expect(mirrored.modules?.[0]?.template?.metadata.namespace).toBe('kyma-system');
    expect(mirrored.modules?.[0]).not.toHaveProperty('manifest');
  });

  it('leaves out the digest of the KCP Kyma’s inputs (ADR 66), and keeps the rest of specSource', () => {
    const specSource = { from: 'runtime' as const, channel: 'fast', generation: 2 };
    expect(mirroredStatus({ ...status, specSource: { ...specSource, inputs: 'abc' } }).specSource).toEqual(specSource);
    expect(mirroredStatus({ ...status, specSource }).specSource).toEqual(specSource);
  });
});

describe('statusPatch (ADR 40)', () => {
  it("replaces what upstream's status sync left: fields we do not write are removed, lists replaced", () => {
    const upstreams = {
      ...status,
      activeChannel: 'regular',
      conditions: [
        ...(status.conditions ?? []),
        { type: 'SKRWebhook', status: 'True' as const, reason: 'Ready', message: 'skrwebhook is synchronized' },
      ],
    };
    const mirrored = mirroredStatus(status);
    const patch = statusPatch(upstreams, mirrored);
    expect(patch.status.activeChannel).toBeNull();
    expect(patch.status.conditions).toEqual(status.conditions);
    expect(patch.status.modules).toEqual(mirrored.modules);
  });

  it('removes every status field a status of ours lacks also when the runtime Kyma was not read', () => {
    expect(statusPatch(undefined, { state: 'Processing' }).status).toEqual({
      state: 'Processing',
      specSource: null,
      activeChannel: null,
      lastOperation: null,
      conditions: null,
      modules: null,
      lastTrace: null,
    });
  });
});

describe('mirrorRead (ADR 77)', () => {
  const own = { force: false as const, statusWritten: true };
  const others = { force: false as const, statusWritten: false };
  it.each([
    ['mirrored by this instance lately: nothing', own, { fresh: true, known: true }, 'skip'],
    ['a status this call wrote, the runtime known: written unread', own, { fresh: false, known: true }, 'write'],
    ['a status this call wrote, the runtime unknown: read first', own, { fresh: false, known: false }, 'live'],
    ["another writer's status (it mirrored it): read first", others, { fresh: false, known: true }, 'live'],
    ["another writer's status, mirrored here lately too: nothing", others, { fresh: true, known: true }, 'skip'],
    [
      'a drift check: read from the watch cache, whatever is remembered',
      { ...own, force: 'any' as const },
      { fresh: true, known: true },
      'any',
    ],
    [
      "a user's edit on the runtime: read live",
      { ...others, force: 'live' as const },
      { fresh: true, known: true },
      'live',
    ],
    [
      'a runtime Kyma with no status but ours, the runtime unknown: written unread (ADR 96)',
      { ...others, onlyOurs: true },
      { fresh: false, known: false },
      'write',
    ],
    [
      'no status but ours, mirrored here lately: nothing',
      { ...own, onlyOurs: true },
      { fresh: true, known: true },
      'skip',
    ],
    [
      "no status but ours, a runtime watch's full check: written unread all the same",
      { ...others, onlyOurs: true, force: 'live' as const },
      { fresh: true, known: true },
      'write',
    ],
  ])('%s', (_, how, memo, expected) => {
    expect(mirrorRead(how, memo)).toBe(expected);
  });
});
