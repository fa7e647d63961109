// When each Kyma became Ready with all its modules, and when each module of it did — fed with the Kymas a watch on
// the KCP sees (one long request, so observing costs the KCP next to nothing). Pure.
import type { Kyma } from '../shared/core/kyma.ts';

export class ReadinessTracker {
  /** Kyma name → ms (performance.now) when it was first Ready with every expected module Ready. */
  readonly kymaReady = new Map<string, number>();
  /** `kyma/module` → ms when that module was first Ready on it. */
  readonly moduleReady = new Map<string, number>();
  /** `kyma/module@version` → ms when that version of the module was first Ready on it (the release phase). */
  readonly versionReady = new Map<string, number>();
  private readonly expected: (kyma: string) => readonly string[];

  constructor(expected: (kyma: string) => readonly string[]) {
    this.expected = expected;
  }

  observe(kyma: Kyma, at: number): void {
    const name = kyma.metadata.name;
    const ready = new Set((kyma.status?.modules ?? []).filter((m) => m.state === 'Ready').map((m) => m.name));
    for (const module of ready)
      if (!this.moduleReady.has(`${name}/${module}`)) this.moduleReady.set(`${name}/${module}`, at);
    for (const m of kyma.status?.modules ?? []) {
      const key = `${name}/${m.name}@${m.version ?? ''}`;
      if (m.state === 'Ready' && m.version && !this.versionReady.has(key)) this.versionReady.set(key, at);
    }
    if (this.kymaReady.has(name) || kyma.status?.state !== 'Ready') return;
    if (this.expected(name).every((m) => ready.has(m))) this.kymaReady.set(name, at);
  }
}
