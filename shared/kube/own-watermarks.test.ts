import { describe, expect, it } from 'vitest';
import { currentFreshness, kindKey, withFreshness } from './freshness.ts';
import { OwnWatermarks } from './own-watermarks.ts';

const KYMA = { apiVersion: 'operator.kyma-project.io/v1beta2', kind: 'Kyma' } as const;
const MANIFEST = { apiVersion: 'operator.kyma-project.io/v1beta2', kind: 'Manifest' } as const;
const a = { namespace: 'kcp-system', name: 'a' };
const b = { namespace: 'kcp-system', name: 'b' };

/** What a call about `kyma` requires of the caches of Kymas and Manifests after `require`. */
function required(marks: OwnWatermarks, kyma: typeof a): Promise<bigint[]> {
  return withFreshness(async () => {
    marks.require(KYMA.apiVersion, KYMA.kind, kyma);
    const freshness = currentFreshness();
    return [KYMA, MANIFEST].map((k) => freshness?.required(kindKey(k.apiVersion, k.kind)) ?? -1n);
  });
}

describe('OwnWatermarks', () => {
  it("makes a call's cached reads wait for the instance's newest write of that kind for that Kyma only", async () => {
    const marks = new OwnWatermarks();
    marks.note(KYMA.apiVersion, KYMA.kind, a, '120');
    marks.note(KYMA.apiVersion, KYMA.kind, a, '110');
    marks.note(MANIFEST.apiVersion, MANIFEST.kind, a, '130');
    expect(await required(marks, a), 'the newest Kyma write; Manifests not required').toEqual([120n, 0n]);
    expect(await required(marks, b), 'another Kyma').toEqual([0n, 0n]);
  });

  it('ignores versions that are not numbers, outside a call does nothing, and forgets the oldest Kyma first', async () => {
    const marks = new OwnWatermarks(1);
    marks.note(KYMA.apiVersion, KYMA.kind, a, 'x');
    expect(await required(marks, a)).toEqual([0n, 0n]);
    expect(() => marks.require(KYMA.apiVersion, KYMA.kind, a)).not.toThrow();
    marks.note(KYMA.apiVersion, KYMA.kind, a, '5');
    marks.note(KYMA.apiVersion, KYMA.kind, b, '6');
    expect(await required(marks, a)).toEqual([0n, 0n]);
    expect(await required(marks, b)).toEqual([6n, 0n]);
  });

  it('notes what an OwnWrites listener is told as a write about the written object', async () => {
    const marks = new OwnWatermarks();
    marks.noting(KYMA.apiVersion, KYMA.kind)({ metadata: { ...a, resourceVersion: '42' } });
    expect(await required(marks, a)).toEqual([42n, 0n]);
  });
});
