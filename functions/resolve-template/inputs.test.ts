import { describe, expect, it } from 'vitest';
import { aKyma } from '../../test/builders.ts';
import { inputsOf, settledByEvent } from './inputs.ts';

const kyma = (extra: Parameters<typeof aKyma>[0] = {}) => aKyma({ generation: 2, labels: { a: '1' }, ...extra });
/** The Kyma as an event carries it, with the digest of `recorded`'s inputs in its status. */
const carrying = (object: ReturnType<typeof aKyma>, recorded = object) => ({
  ...object,
  status: { state: 'Ready', specSource: { from: 'runtime', channel: 'regular', inputs: inputsOf(recorded.metadata) } },
});

describe('inputsOf (the digest of a Kyma’s own inputs to its resolution)', () => {
  it('changes with the generation, a label, an annotation, a finalizer and the deletion, and not with the status', () => {
    const base = inputsOf(kyma().metadata);
    expect(inputsOf(kyma({ status: { state: 'Error' } }).metadata)).toBe(base);
    expect(inputsOf({ ...kyma().metadata, resourceVersion: '99' })).toBe(base);
    for (const changed of [
      kyma({ generation: 3 }),
      kyma({ labels: { a: '2' } }),
      kyma({ annotations: { b: '1' } }),
      kyma({ finalizers: ['x'] }),
      kyma({ deleting: true }),
    ])
      expect(inputsOf(changed.metadata)).not.toBe(base);
  });

  it('does not depend on the order of labels', () => {
    expect(inputsOf(kyma({ labels: { a: '1', b: '2' } }).metadata)).toBe(
      inputsOf(kyma({ labels: { b: '2', a: '1' } }).metadata),
    );
  });
});

describe('settledByEvent (what a Kyma event’s own object leaves to do, before any read)', () => {
  it('settles an update whose object records its own inputs as resolved', () => {
    expect(settledByEvent('update', carrying(kyma()))).toBe('inputs resolved already');
  });

  it('works on an update whose inputs differ from the recorded ones, or that records none', () => {
    expect(settledByEvent('update', carrying(kyma({ generation: 3 }), kyma()))).toBeUndefined();
    expect(settledByEvent('update', carrying(kyma({ labels: { a: '2' } }), kyma()))).toBeUndefined();
    expect(settledByEvent('update', kyma({ status: { state: 'Ready' } }))).toBeUndefined();
  });

  it('settles an add or update of a Kyma being deleted (purge’s work)', () => {
    expect(settledByEvent('update', kyma({ deleting: true }))).toBe('deleting');
    expect(settledByEvent('add', kyma({ deleting: true }))).toBe('deleting');
  });

  it('never settles an add (a source restart lists everything), a delete, a resync or a fan-out', () => {
    expect(settledByEvent('add', carrying(kyma()))).toBeUndefined();
    expect(settledByEvent(undefined, carrying(kyma({ deleting: true }))), 'a delete, a resync').toBeUndefined();
  });

  it.each([null, undefined, 'text', 7, [], { metadata: null }, { metadata: 'x' }, { metadata: {}, status: 'x' }])(
    'works on data of another shape (%j)',
    (data) => {
      expect(settledByEvent('update', data)).toBeUndefined();
    },
  );
});
