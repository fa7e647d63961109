import { describe, expect, it } from 'vitest';
import { idleCpu } from './idle-result.ts';

const usage = (cpuSeconds: number) => ({ cpuSeconds, rssBytes: 0, peakRssBytes: 0 });

describe('idleCpu', () => {
  it('splits the idle window CPU by process kind and says how busy it kept the cores', () => {
    const cpu = idleCpu(
      {
        seconds: 60,
        self: usage(6),
        processes: {
          'kcp-kube-apiserver': usage(12),
          'runtime-1-kube-apiserver': usage(3),
          'kcp-etcd': usage(2),
          'runtime-1-etcd': usage(1),
          kwok: usage(0.5),
        },
      },
      2,
    );
    expect(cpu).toEqual({
      thisProcessSeconds: 6,
      functionProcessesSeconds: 0,
      knativeSeconds: 0,
      apiServersSeconds: 15,
      etcdSeconds: 3,
      machineBusyShare: 0.204,
    });
  });

  it('counts the function processes and Knative pods of a run through Knative apart from this process', () => {
    const cpu = idleCpu(
      {
        seconds: 10,
        self: usage(1),
        processes: {
          'apply-remote-1': usage(2),
          'apply-remote-2': usage(1),
          'knative-knative-eventing-imc-dispatcher': usage(4),
        },
      },
      4,
    );
    expect(cpu).toMatchObject({ thisProcessSeconds: 1, functionProcessesSeconds: 3, knativeSeconds: 4 });
    expect(cpu.machineBusyShare).toBe(0.2);
  });
});
