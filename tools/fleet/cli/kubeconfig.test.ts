import { describe, expect, it } from 'vitest';
import { chooseKcp } from './kubeconfig.ts';

const announced = { kubeconfig: '/runs/kcp.kubeconfig', fleet: 'http://127.0.0.1:8090' };
const none = { kubeconfig: undefined, fleet: undefined };

describe('where the fleet CLI reads the KCP', () => {
  it('status and why: --fleet, --kubeconfig, $KUBECONFIG, else the running ./dev start (its fleet component first)', () => {
    expect(chooseKcp({ ...none, fleet: 'http://f' }, '/env', announced, 'kcp-or-fleet')).toEqual({ fleet: 'http://f' });
    expect(chooseKcp({ ...none, kubeconfig: '/flag' }, '/env', announced, 'kcp-or-fleet')).toEqual({
      path: '/flag',
      given: true,
    });
    expect(chooseKcp(none, '/env:/other', announced, 'kcp-or-fleet')).toEqual({ path: '/env', given: true });
    expect(chooseKcp(none, undefined, announced, 'kcp-or-fleet')).toEqual({ fleet: announced.fleet });
    expect(chooseKcp(none, undefined, { kubeconfig: announced.kubeconfig }, 'kcp-or-fleet')).toEqual({
      path: announced.kubeconfig,
      given: false,
    });
    expect(chooseKcp(none, undefined, undefined, 'kcp-or-fleet')).toBeUndefined();
  });

  it('plan reads the KCP itself: the kubeconfig ./dev start announced, not its fleet component', () => {
    expect(chooseKcp(none, undefined, announced, 'kcp')).toEqual({ path: announced.kubeconfig, given: false });
    expect(chooseKcp(none, '', announced, 'kcp')).toEqual({ path: announced.kubeconfig, given: false });
    expect(chooseKcp({ ...none, kubeconfig: '/flag' }, undefined, announced, 'kcp')).toEqual({
      path: '/flag',
      given: true,
    });
    expect(chooseKcp(none, undefined, { fleet: announced.fleet }, 'kcp')).toBeUndefined();
  });
});
