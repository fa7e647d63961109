import { describe, expect, it } from 'vitest';
import { apiErrorFrom, retryAfterMs, TOO_MANY_RETRIES } from './errors.ts';

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
