import { describe, expect, it } from 'vitest';
import { aKyma, aTemplate } from '../../test/builders.ts';
import type { Kyma } from './kyma.ts';
import { maintenanceRequired, parsePolicy, windowOpen, windowsFor } from './maintenance.ts';
import type { ModuleTemplate } from './templates.ts';

const kyma = (labels: Record<string, string> = {}, skip = false): Kyma => ({
  ...aKyma({ name: 'k', labels }),
  spec: { channel: 'regular', skipMaintenanceWindows: skip },
});
const template = (requiresDowntime: boolean): ModuleTemplate =>
  aTemplate({ module: 'm', version: '2.0.0', spec: { requiresDowntime } });
// 2026-11-21 is a Saturday.
const at = (iso: string) => new Date(iso);

describe('maintenanceRequired', () => {
  it('only for an upgrade of an installed module whose template requires downtime, unless the Kyma skips windows', () => {
    const installed = { name: 'm', version: '1.0.0' };
    expect(maintenanceRequired(kyma(), template(true), installed, '2.0.0')).toBe(true);
    expect(maintenanceRequired(kyma(), template(true), undefined, '2.0.0')).toBe(false);
    expect(maintenanceRequired(kyma(), template(true), { name: 'm' }, '2.0.0')).toBe(false);
    expect(maintenanceRequired(kyma(), template(true), installed, '1.0.0')).toBe(false);
    expect(maintenanceRequired(kyma(), template(false), installed, '2.0.0')).toBe(false);
    expect(maintenanceRequired(kyma({}, true), template(true), installed, '2.0.0')).toBe(false);
  });
});

describe('policy', () => {
  const policy = parsePolicy(
    JSON.stringify({
      rules: [
        { match: { plan: 'trial|free' }, windows: [{ days: ['Sat'], begin: '02:00:00+00:00', end: '04:00:00+00:00' }] },
      ],
      default: { days: ['Sun'], begin: '23:00:00+02:00', end: '01:00:00+02:00' },
    }),
  );

  it('picks the first matching rule by Kyma labels (whole-value regex), else the default', () => {
    expect(windowsFor(policy, kyma({ 'kyma-project.io/broker-plan-name': 'trial' }))[0]?.days).toEqual(['Sat']);
    expect(windowsFor(policy, kyma({ 'kyma-project.io/broker-plan-name': 'trial-x' }))[0]?.days).toEqual(['Sun']);
    expect(windowsFor(policy, kyma())[0]?.days).toEqual(['Sun']);
  });

  it('opens a window on its weekday between begin and end, honouring offsets, midnight crossings and the minimum left', () => {
    const sat = windowsFor(policy, kyma({ 'kyma-project.io/broker-plan-name': 'free' }));
    expect(windowOpen(sat, at('2026-11-21T02:30:00Z'), 20)).toBe(true);
    expect(windowOpen(sat, at('2026-11-21T03:50:00Z'), 20)).toBe(false);
    expect(windowOpen(sat, at('2026-11-21T04:00:01Z'), 0)).toBe(false);
    expect(windowOpen(sat, at('2026-11-22T02:30:00Z'), 20)).toBe(false);
    const sun = windowsFor(policy, kyma());
    // Sunday 23:00 to Monday 01:00 at +02:00 = Sunday 21:00Z to 23:00Z.
    expect(windowOpen(sun, at('2026-11-22T21:30:00Z'), 20)).toBe(true);
    expect(windowOpen(sun, at('2026-11-22T20:59:00Z'), 20)).toBe(false);
    expect(windowOpen([{ begin: '22:00:00Z', end: '02:00:00Z' }], at('2026-11-25T01:00:00Z'), 20)).toBe(true);
  });

  it('refuses malformed policies with the reason', () => {
    expect(() => parsePolicy('{')).toThrow(SyntaxError);
    expect(() => parsePolicy(JSON.stringify({ rules: [{ match: { colour: 'x' }, windows: [] }] }))).toThrow(
      /unknown match key "colour"/,
    );
    expect(() =>
      parsePolicy(JSON.stringify({ rules: [], default: { days: ['Funday'], begin: '01:00:00Z', end: '02:00:00Z' } })),
    ).toThrow(/unknown day "Funday"/);
    expect(() => parsePolicy(JSON.stringify({ rules: [], default: { begin: '1am', end: '02:00:00Z' } }))).toThrow(
      /not HH:MM:SS/,
    );
  });
});
