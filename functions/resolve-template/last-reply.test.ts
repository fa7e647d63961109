import { describe, expect, it } from 'vitest';
import { aKyma } from '../../test/builders.ts';
import { catalogNamespacesOf, LastReplies, type ReplySeen } from './last-reply.ts';

const seen = (extra: Partial<ReplySeen> = {}): ReplySeen => ({
  kyma: '41',
  manifests: 'k1-a@7,k1-b@9',
  catalog: 'a-1@3|a@4',
  ...extra,
});
const WITHIN = 450_000;

describe('what a drift check compares with its last reply (ADR 95)', () => {
  it('holds the same versions within the window, and nothing after it', () => {
    const replies = new LastReplies(WITHIN);
    replies.remember('uid-1', seen(), 1_000);
    expect(replies.same('uid-1', seen(), 1_000 + WITHIN - 1)).toBe(true);
    expect(replies.same('uid-1', seen(), 1_000 + WITHIN)).toBe(false);
    expect(replies.same('uid-2', seen(), 1_000)).toBe(false);
  });

  it('differs when the Kyma, a Manifest or the catalog moved', () => {
    const replies = new LastReplies(WITHIN);
    replies.remember('uid-1', seen(), 0);
    expect(replies.same('uid-1', seen({ kyma: '42' }), 1)).toBe(false);
    expect(replies.same('uid-1', seen({ manifests: 'k1-a@7' }), 1)).toBe(false);
    expect(replies.same('uid-1', seen({ catalog: 'a-1@3,a-2@8|a@4' }), 1)).toBe(false);
  });

  it('a newer reply replaces the last one', () => {
    const replies = new LastReplies(WITHIN);
    replies.remember('uid-1', seen(), 0);
    replies.remember('uid-1', seen({ kyma: '42' }), 10);
    expect(replies.same('uid-1', seen(), 20)).toBe(false);
    expect(replies.same('uid-1', seen({ kyma: '42' }), 20)).toBe(true);
  });

  it('forgets Kymas not replied to within the window once it has grown, and keeps the recent ones', () => {
    const replies = new LastReplies(WITHIN);
    for (let i = 0; i < 999; i++) replies.remember(`gone-${i}`, seen(), 0);
    replies.remember('recent', seen(), WITHIN);
    expect(replies.same('recent', seen(), WITHIN + 1)).toBe(true);
    expect(replies.same('gone-0', seen(), 1)).toBe(false);
  });

  it("reads the catalog of the Kyma's namespace and of each namespace its resolved templates are in", () => {
    const template = (namespace?: string) => ({
      apiVersion: 'operator.kyma-project.io/v1beta2',
      kind: 'ModuleTemplate',
      metadata: { name: 't', ...(namespace === undefined ? {} : { namespace }) },
    });
    const kyma = aKyma({
      status: {
        modules: [
          { name: 'a', template: template() },
          { name: 'b', template: template('catalog') },
        ],
      },
    });
    expect(catalogNamespacesOf(kyma)).toEqual(['catalog', 'kcp-system']);
    expect(catalogNamespacesOf(aKyma())).toEqual(['kcp-system']);
  });
});
