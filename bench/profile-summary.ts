// What a V8 CPU profile (.cpuprofile, as DevTools and `node --cpu-prof` write it) says in a few lines: the share of
// samples each function spent itself, and each area of the code (ours by folder, a package, Node's internals).

/** The parts of a .cpuprofile this summary reads. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] }[];
  samples: number[];
}

export interface ProfileShare {
  name: string;
  /** Share of all samples, 0–1. */
  share: number;
}

export interface ProfileSummary {
  samples: number;
  functions: ProfileShare[];
  areas: ProfileShare[];
}

/** PURE. Where a URL's code lives: `node_modules/<package>` (scoped packages with their scope), a project folder two
 * levels deep (`shared/kube`, `functions/apply-remote`), `node:<module>`; V8's own entries ("(garbage collector)",
 * "(idle)", "(program)") and builtins without a URL by their name. */
export function areaOf(url: string, functionName: string): string {
  if (!url) return functionName || '(native)';
  if (url.startsWith('node:')) return url.split('/').slice(0, 2).join('/');
  const path = url.replace(/^file:\/\//, '');
  const packaged = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (packaged) return `node_modules/${packaged[1]}`;
  const ours = /\/(functions|shared|components|local|bench|tools)\/([^/]+)\//.exec(path);
  return ours ? `${ours[1]}/${ours[2]}` : path.split('/').slice(-2).join('/');
}

/** PURE. The `top` functions by self time and the `top` areas, each with its share of all samples. */
export function summarizeProfile(profile: CpuProfile, top = 25): ProfileSummary {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const functions = new Map<string, number>();
  const areas = new Map<string, number>();
  for (const id of profile.samples) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    const file = frame.url.split('/').slice(-2).join('/');
    const name = `${frame.functionName || '(anonymous)'}${file ? ` ${file}:${frame.lineNumber + 1}` : ''}`;
    functions.set(name, (functions.get(name) ?? 0) + 1);
    const area = areaOf(frame.url, frame.functionName);
    areas.set(area, (areas.get(area) ?? 0) + 1);
  }
  const total = profile.samples.length;
  const ranked = (counts: Map<string, number>) =>
    [...counts]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, count]) => ({ name, share: total ? count / total : 0 }));
  return { samples: total, functions: ranked(functions), areas: ranked(areas) };
}

/** PURE. The summary as text: one line per entry, its share in percent. */
export function summaryText(summary: ProfileSummary): string {
  const lines = (shares: ProfileShare[]) =>
    shares.map((s) => `${(100 * s.share).toFixed(1).padStart(5)} %  ${s.name}`).join('\n');
  return [
    `${summary.samples} samples`,
    'self time by function:',
    lines(summary.functions),
    'self time by area:',
    lines(summary.areas),
  ].join('\n');
}
