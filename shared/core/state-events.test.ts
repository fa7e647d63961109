import { describe, expect, it } from 'vitest';
import { deletionStepEvent, deletionStuckEvent, manifestStateEvent, stateChangeEvent } from './state-events.ts';

describe('state change events', () => {
  it('only when the state changes; Warning for Error and Warning', () => {
    expect(stateChangeEvent('Processing', 'Processing', 'x')).toBeUndefined();
    expect(stateChangeEvent('Processing', undefined, 'x')).toBeUndefined();
    expect(stateChangeEvent(undefined, 'Processing', undefined)).toEqual({
      type: 'Normal',
      reason: 'StateChanged',
      message: 'new → Processing',
    });
    expect(stateChangeEvent('Processing', 'Ready', 'kyma is ready')).toEqual({
      type: 'Normal',
      reason: 'StateChanged',
      message: 'Processing → Ready: kyma is ready',
    });
    expect(stateChangeEvent('Ready', 'Error', 'module papa: Error')?.type).toBe('Warning');
    expect(stateChangeEvent('Ready', 'Warning', 'x')?.type).toBe('Warning');
  });
});

describe('Manifest state change events', () => {
  it('only into or out of trouble: an install or upgrade that goes well records none', () => {
    expect(manifestStateEvent(undefined, 'Processing', 'x')).toBeUndefined();
    expect(manifestStateEvent('Processing', 'Ready', 'resources are ready')).toBeUndefined();
    expect(manifestStateEvent('Ready', 'Processing', 'x')).toBeUndefined();
    expect(manifestStateEvent('Processing', 'Error', 'ProgressDeadlineExceeded')).toEqual({
      type: 'Warning',
      reason: 'StateChanged',
      message: 'Processing → Error: ProgressDeadlineExceeded',
    });
    expect(manifestStateEvent('Error', 'Ready', 'resources are ready')).toEqual({
      type: 'Normal',
      reason: 'StateChanged',
      message: 'Error → Ready: resources are ready',
    });
    expect(manifestStateEvent('Warning', 'Warning', 'x')).toBeUndefined();
  });
});

describe('deletion step events', () => {
  it('name the step and what it did; waiting for modules is a Warning naming what blocks', () => {
    expect(deletionStepEvent({ step: 'DeleteManifests', names: ['a', 'b'] })).toEqual({
      type: 'Normal',
      reason: 'DeleteManifests',
      message: 'deleting Manifests a, b',
    });
    expect(deletionStepEvent({ step: 'DeleteRuntimeCrd', name: 'kymas.operator.kyma-project.io' })).toEqual({
      type: 'Normal',
      reason: 'DeleteSkrKymaCrd',
      message: 'deleting CRD kymas.operator.kyma-project.io on the runtime',
    });
    expect(
      deletionStepEvent({ step: 'DeleteRuntimeCrd', name: 'moduletemplates.operator.kyma-project.io' }).reason,
    ).toBe('DeleteSkrModuleTemplateCrd');
    expect(deletionStepEvent({ step: 'DeleteRemoteKyma' }).reason).toBe('DeleteSkrKyma');
    expect(deletionStepEvent({ step: 'SetKymaStateDeleting' }).reason).toBe('SetKcpKymaStateDeleting');
    expect(
      deletionStepEvent({ step: 'WaitForManifests', message: 'waiting for modules to be deleted: papa (Sample ns/x)' }),
    ).toEqual({
      type: 'Warning',
      reason: 'EnsureManifestDeletion',
      message: 'waiting for modules to be deleted: papa (Sample ns/x)',
    });
    expect(deletionStepEvent({ step: 'DropKymaFinalizer' }).reason).toBe('DropKymaFinalizer');
  });
});

describe('deletion stuck event', () => {
  it('names the finalizers that are not ours; none when nothing holds the Kyma', () => {
    expect(deletionStuckEvent(['example.com/hold'])).toEqual({
      type: 'Warning',
      reason: 'KymaDeletionStuck',
      message: "the Kyma's deletion waits for finalizers the lifecycle manager does not own: [example.com/hold]",
    });
    expect(deletionStuckEvent([])).toBeUndefined();
    expect(deletionStuckEvent(['foregroundDeletion'])).toBeUndefined();
    expect(deletionStuckEvent(['foregroundDeletion', 'example.com/hold'])?.message).toContain('[example.com/hold]');
  });
});
