import { describe, expect, it } from 'vitest';
import { apiErrorFrom, isRefusedWhileTerminating, retryAfterMs, TOO_MANY_RETRIES } from './errors.ts';
import { isRuntimeUnreachable, toLifecycleError } from '../host/errors.ts';

// The Status kube-apiserver answers while a new resource's watch cache initializes (errors.NewTooManyRequests).
const initializing = JSON.stringify({
  kind: 'Status',
  apiVersion: 'v1',
  status: 'Failure',
  message: 'storage is (re)initializing',
  reason: 'TooManyRequests',
  details: { retryAfterSeconds: 1 },
  code: 429,
});

describe('retryAfterMs: a 429 is sent again after the server says, as client-go does (ADR 54)', () => {
  it("waits the Status's retryAfterSeconds, 1 s when the body names none", () => {
    expect(retryAfterMs(429, initializing, 0)).toBe(1000);
    expect(retryAfterMs(429, 'Too many requests, please try again later.', 0)).toBe(1000);
    expect(retryAfterMs(429, JSON.stringify({ details: {} }), 1)).toBe(1000);
  });

  it('never waits longer than 2 s nor shorter than 100 ms, whatever the body says', () => {
    expect(retryAfterMs(429, JSON.stringify({ details: { retryAfterSeconds: 60 } }), 0)).toBe(2000);
    expect(retryAfterMs(429, JSON.stringify({ details: { retryAfterSeconds: 0 } }), 0)).toBe(100);
    expect(retryAfterMs(429, JSON.stringify({ details: { retryAfterSeconds: 'soon' } }), 0)).toBe(1000);
  });

  it(`gives up after ${TOO_MANY_RETRIES} retries, and never retries another status`, () => {
    expect(retryAfterMs(429, initializing, TOO_MANY_RETRIES - 1)).toBe(1000);
    expect(retryAfterMs(429, initializing, TOO_MANY_RETRIES)).toBeUndefined();
    for (const status of [400, 403, 404, 409, 500, 503]) expect(retryAfterMs(status, initializing, 0)).toBeUndefined();
  });

  it('the error after the last retry still names the Status reason and message', () => {
    expect(apiErrorFrom(429, initializing, 'GET /apis/x').message).toBe(
      'GET /apis/x: 429 TooManyRequests: storage is (re)initializing',
    );
  });
});

// Status bodies kube-apiserver answers while a CRD or a namespace is being deleted.
const crdTerminating = JSON.stringify({
  kind: 'Status',
  message:
    'hotels.example.io "hotel-default" is forbidden: create not allowed while custom resource definition is terminating',
  reason: 'Forbidden',
  code: 403,
});
const namespaceTerminating = JSON.stringify({
  kind: 'Status',
  message:
    'configmaps "x" is forbidden: unable to create new content in namespace kyma-system because it is being terminated',
  reason: 'Forbidden',
  code: 403,
});

describe('isRefusedWhileTerminating: a write refused while what it needs is deleted is no credential problem', () => {
  it('recognises the CRD and the namespace refusals, 403 and the older 405', () => {
    expect(isRefusedWhileTerminating(apiErrorFrom(403, crdTerminating, 'POST /apis/example.io/v1/hotels'))).toBe(true);
    expect(isRefusedWhileTerminating(apiErrorFrom(405, crdTerminating, 'POST /apis/example.io/v1/hotels'))).toBe(true);
    expect(isRefusedWhileTerminating(apiErrorFrom(403, namespaceTerminating, 'PATCH /api/v1/configmaps'))).toBe(true);
  });

  it('leaves every other 403 a runtime that cannot be used, and other statuses alone', () => {
    const denied = JSON.stringify({ message: 'User "x" cannot create resource "hotels"', reason: 'Forbidden' });
    expect(isRefusedWhileTerminating(apiErrorFrom(403, denied, 'POST /x'))).toBe(false);
    expect(isRuntimeUnreachable(apiErrorFrom(403, denied, 'POST /x'))).toBe(true);
    expect(isRuntimeUnreachable(apiErrorFrom(403, crdTerminating, 'POST /x'))).toBe(false);
    expect(isRefusedWhileTerminating(apiErrorFrom(409, crdTerminating, 'POST /x'))).toBe(false);
  });

  it('is retried as not yet ready, not dead-lettered as internal', () => {
    const error = toLifecycleError(apiErrorFrom(403, namespaceTerminating, 'PATCH /api/v1/configmaps'));
    expect(error.code).toBe('LCM_ERR_NOT_YET_READY');
    expect(error.retryable).toBe(true);
  });
});
