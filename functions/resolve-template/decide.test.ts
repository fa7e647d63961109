import { describe, expect, it } from 'vitest';
import { aKyma } from '../../test/builders.ts';
import { FINAL, nextResolveStep, type ResolveView } from './decide.ts';
import { firstContact } from './remote-kyma.ts';

const kyma = aKyma;
const kymaView = (extra: Partial<ResolveView> = {}): ResolveView => ({ kind: 'Kyma', kyma: kyma(), ...extra });
const listed = { metadataEnsured: true, list: { created: false, gone: false } };

describe('nextResolveStep (the order of resolve-template)', () => {
  it.each([
    ['a ModuleTemplate change fans out', { kind: 'ModuleTemplate' }, 'FanOut'],
    [
      'a ModuleReleaseMeta: a deleted mandatory module is released first',
      { kind: 'ModuleReleaseMeta' },
      'ReleaseMandatory',
    ],
    ['then nothing else, when that took the call', { kind: 'ModuleReleaseMeta', mandatoryReleased: true }, 'Ignore'],
    ['else it fans out', { kind: 'ModuleReleaseMeta', mandatoryReleased: false }, 'FanOut'],
    [
      'a Kyma event whose own object settles it: nothing, before anything else',
      { kind: 'Kyma', settled: 'inputs resolved already' } satisfies ResolveView,
      'Ignore',
    ],
    ['a Kyma gone: nothing', kymaView({ kyma: undefined }), 'Ignore'],
    ['a Kyma being deleted: nothing (purge)', kymaView({ kyma: kyma({ deleting: true }) }), 'Ignore'],
    [
      'a Kyma that skips reconciliation: nothing',
      kymaView({ kyma: kyma({ labels: { 'operator.kyma-project.io/skip-reconciliation': 'true' } }) }),
      'Ignore',
    ],
    ['first its finalizer and label', kymaView(), 'EnsureMetadata'],
    ['then the module list that counts', kymaView({ metadataEnsured: true }), 'TakeModuleList'],
    [
      'a runtime Kyma this call created is reported',
      kymaView({ metadataEnsured: true, list: { created: true, gone: false } }),
      'ReportRuntimeKymaCreated',
    ],
    [
      'reported also when the Kyma went meanwhile (created, then deleted again)',
      kymaView({ metadataEnsured: true, list: { created: true, gone: true } }),
      'ReportRuntimeKymaCreated',
    ],
    [
      'then nothing for a Kyma gone meanwhile',
      kymaView({ metadataEnsured: true, list: { created: true, gone: true }, createdReported: true }),
      'Ignore',
    ],
    ['then the resolution', kymaView(listed), 'Resolve'],
    ['written when it changed', kymaView({ ...listed, resolution: { changed: true } }), 'WriteResolution'],
    ['then the reply', kymaView({ ...listed, resolution: { changed: true }, written: true }), 'ReplyResolved'],
    [
      'the reply at once when nothing changed',
      kymaView({ ...listed, resolution: { changed: false } }),
      'ReplyResolved',
    ],
    [
      'a drift check that wrote nothing first compares with its last reply (ADR 95)',
      kymaView({ ...listed, resolution: { changed: false }, driftCheck: true }),
      'CompareWithLastReply',
    ],
    [
      'and replies when what it read moved since',
      kymaView({ ...listed, resolution: { changed: false }, driftCheck: true, lastReply: { same: false } }),
      'ReplyResolved',
    ],
    [
      'a drift check that wrote its resolution replies without comparing',
      kymaView({ ...listed, resolution: { changed: true }, written: true, driftCheck: true }),
      'ReplyResolved',
    ],
  ])('%s', (_, view, step) => {
    expect(nextResolveStep(view).step).toBe(step);
  });

  it('says why it leaves a Kyma alone', () => {
    expect(nextResolveStep(kymaView({ kyma: undefined }))).toEqual({ step: 'Ignore', why: 'gone' });
    expect(nextResolveStep(kymaView({ metadataEnsured: true, list: { created: false, gone: true } }))).toEqual({
      step: 'Ignore',
      why: 'gone meanwhile',
    });
    const same = { ...listed, resolution: { changed: false }, driftCheck: true, lastReply: { same: true } };
    expect(nextResolveStep(kymaView(same))).toEqual({ step: 'Ignore', why: 'unchanged since its last reply' });
  });

  it('walks a Kyma event from the read to the reply, each step once', () => {
    const view = kymaView();
    const taken: string[] = [];
    const observe: Record<string, (v: ResolveView) => void> = {
      EnsureMetadata: (v) => {
        v.metadataEnsured = true;
      },
      TakeModuleList: (v) => {
        v.list = { created: true, gone: false };
      },
      ReportRuntimeKymaCreated: (v) => {
        v.createdReported = true;
      },
      Resolve: (v) => {
        v.resolution = { changed: true };
      },
      WriteResolution: (v) => {
        v.written = true;
      },
      CompareWithLastReply: (v) => {
        v.lastReply = { same: true };
      },
    };
    for (let step = nextResolveStep(view); taken.length < 10; step = nextResolveStep(view)) {
      taken.push(step.step);
      if (FINAL.has(step.step)) break;
      observe[step.step]?.(view);
    }
    expect(taken).toEqual([
      'EnsureMetadata',
      'TakeModuleList',
      'ReportRuntimeKymaCreated',
      'Resolve',
      'WriteResolution',
      'ReplyResolved',
    ]);
  });

  it('walks a quiet drift check to its reads and no reply when its last reply saw the same (ADR 95)', () => {
    const view = kymaView({ driftCheck: true });
    const taken: string[] = [];
    const observe: Record<string, (v: ResolveView) => void> = {
      EnsureMetadata: (v) => void (v.metadataEnsured = true),
      TakeModuleList: (v) => void (v.list = { created: false, gone: false }),
      Resolve: (v) => void (v.resolution = { changed: false }),
      CompareWithLastReply: (v) => void (v.lastReply = { same: true }),
    };
    for (let step = nextResolveStep(view); taken.length < 10; step = nextResolveStep(view)) {
      taken.push(step.step);
      if (FINAL.has(step.step)) break;
      observe[step.step]?.(view);
    }
    expect(taken).toEqual(['EnsureMetadata', 'TakeModuleList', 'Resolve', 'CompareWithLastReply', 'Ignore']);
  });
});

describe('firstContact (a runtime Kyma created unread, ADR 85)', () => {
  it('holds only for a Kyma whose status no manager has written: no state and no resolution', () => {
    expect(firstContact(aKyma())).toBe(true);
    expect(firstContact(aKyma({ status: {} }))).toBe(true);
    // taken over from upstream's manager: its state is there, the runtime Kyma most likely too
    expect(firstContact(aKyma({ status: { state: 'Ready' } }))).toBe(false);
    // resolved from the KCP spec while the runtime had no Kyma CRD: the state is written with it
    expect(firstContact(aKyma({ status: { specSource: { from: 'kcp', channel: 'regular' } } }))).toBe(false);
  });
});
