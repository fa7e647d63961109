// When each Kyma became Ready with all its modules, and when each module of it did — fed with the Kymas a watch on
// the KCP sees (one long request, so observing costs the KCP next to nothing); for the edits' hops, also when a module
// was first listed and when the edited module's Manifests appeared and turned Ready. Pure.
import type { Kyma } from '../shared/core/kyma.ts';
import type { Manifest } from '../shared/core/manifest.ts';
import { LABEL } from '../shared/core/vocabulary.ts';

export class ReadinessTracker {
  /** Kyma name → ms (performance.now) when it was first Ready with every expected module Ready. */
  readonly kymaReady = new Map<string, number>();
  /** `kyma/module` → ms when that module was first Ready on it. */
  readonly moduleReady = new Map<string, number>();
  /** `kyma/module@version` → ms when that version of the module was first Ready on it (the release phase). */
  readonly versionReady = new Map<string, number>();
  /** `kyma/module` → ms when a traced module was first listed in the Kyma's status (resolved), in any state. */
  readonly moduleListed = new Map<string, number>();
  /** `kyma/module` → ms when its Manifest was first seen, and when first seen Ready (the watched Manifests only). */
  readonly manifestSeen = new Map<string, number>();
  readonly manifestReady = new Map<string, number>();
  private readonly expected: (kyma: string) => readonly string[];

  /** The modules whose hops are followed (the edits' module): a few entries, not one per install. */
  private readonly traced: ReadonlySet<string>;

  constructor(expected: (kyma: string) => readonly string[], traced: readonly string[] = []) {
    this.expected = expected;
    this.traced = new Set(traced);
  }

  observe(kyma: Kyma, at: number): void {
    const name = kyma.metadata.name;
    const ready = new Set((kyma.status?.modules ?? []).filter((m) => m.state === 'Ready').map((m) => m.name));
    for (const m of kyma.status?.modules ?? []) {
      if (this.traced.has(m.name)) firstAt(this.moduleListed, `${name}/${m.name}`, at);
      if (m.state !== 'Ready') continue;
      firstAt(this.moduleReady, `${name}/${m.name}`, at);
      if (m.version) firstAt(this.versionReady, `${name}/${m.name}@${m.version}`, at);
    }
    if (this.kymaReady.has(name) || kyma.status?.state !== 'Ready') return;
    if (this.expected(name).every((m) => ready.has(m))) this.kymaReady.set(name, at);
  }

  observeManifest(manifest: Manifest, at: number): void {
    const labels = manifest.metadata.labels ?? {};
    const key = `${labels[LABEL.kymaName] ?? ''}/${labels[LABEL.moduleName] ?? ''}`;
    firstAt(this.manifestSeen, key, at);
    if (manifest.status?.state === 'Ready') firstAt(this.manifestReady, key, at);
  }
}

const firstAt = (seen: Map<string, number>, key: string, at: number) => {
  if (!seen.has(key)) seen.set(key, at);
};
