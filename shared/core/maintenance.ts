// PURE. Maintenance windows (upstream §2.12): which upgrades must wait, and whether a runtime's window is open now.
import type { Kyma, ModuleStatus } from './kyma.ts';
import type { ModuleTemplate } from './templates.ts';

/** One weekly window: weekdays (none = every day) and begin/end times with offsets, `HH:MM:SS+HH:MM`. */
export interface MaintenanceWindow {
  days?: string[];
  begin: string;
  end: string;
}
export interface MaintenancePolicy {
  rules: { match: Record<string, string>; windows: MaintenanceWindow[] }[];
  default?: MaintenanceWindow | MaintenanceWindow[];
}

export const WAITING_MESSAGE = 'waiting for next maintenance window to update module version';
const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const TIME = /^(\d{2}):(\d{2}):(\d{2})(?:([+-])(\d{2}):(\d{2})|Z)?$/;
/** Kyma labels → the runtime facts a rule's `match` may test (regular expressions, matched whole). */
const FACTS: Record<string, string> = {
  globalAccountID: 'kyma-project.io/global-account-id',
  region: 'kyma-project.io/region',
  platformRegion: 'kyma-project.io/platform-region',
  plan: 'kyma-project.io/broker-plan-name',
};

/** An upgrade waits for a window iff the template requires downtime, the Kyma does not skip windows, and an
 * installed (different) version exists: first installs never wait. */
export function maintenanceRequired(
  kyma: Kyma,
  template: ModuleTemplate,
  previous: ModuleStatus | undefined,
  version: string,
): boolean {
  return (
    Boolean(template.spec?.requiresDowntime) &&
    !kyma.spec?.skipMaintenanceWindows &&
    Boolean(previous?.version) &&
    previous?.version !== version
  );
}

/** Parses and checks a policy file's JSON; the error says what is wrong. */
export function parsePolicy(text: string): MaintenancePolicy {
  const policy = JSON.parse(text) as Partial<MaintenancePolicy>;
  if (!policy || typeof policy !== 'object' || !Array.isArray(policy.rules ?? []))
    throw new Error('policy must be an object with a "rules" array');
  const rules = (policy.rules ?? []).map((rule, i) => {
    for (const key of Object.keys(rule.match ?? {}))
      if (!FACTS[key])
        throw new Error(`rule ${i}: unknown match key "${key}" (known: ${Object.keys(FACTS).join(', ')})`);
    for (const value of Object.values(rule.match ?? {})) new RegExp(value);
    return { match: rule.match ?? {}, windows: (rule.windows ?? []).map(checkWindow) };
  });
  const defaults = policy.default === undefined ? undefined : [policy.default].flat().map(checkWindow);
  return { rules, ...(defaults ? { default: defaults } : {}) };
}

function checkWindow(window: MaintenanceWindow): MaintenanceWindow {
  for (const day of window.days ?? [])
    if (!DAYS.includes(day)) throw new Error(`unknown day "${day}" (use ${DAYS.join(', ')})`);
  for (const time of [window.begin, window.end])
    if (typeof time !== 'string' || !TIME.test(time)) throw new Error(`time "${String(time)}" is not HH:MM:SS±HH:MM`);
  return window;
}

/** The windows of the first rule whose every match expression fits the Kyma's labels, else the default. */
export function windowsFor(policy: MaintenancePolicy, kyma: Kyma): MaintenanceWindow[] {
  const labels = kyma.metadata.labels ?? {};
  const rule = policy.rules.find((r) =>
    Object.entries(r.match).every(([key, pattern]) =>
      new RegExp(`^(?:${pattern})$`).test(labels[FACTS[key] ?? ''] ?? ''),
    ),
  );
  return rule ? rule.windows : [policy.default ?? []].flat();
}

/** Whether some window is open at `now` with at least `minMinutes` of it left (an upgrade is not started in a
 * window's last minutes). A window whose end is not after its begin ends the next day. */
export function windowOpen(windows: MaintenanceWindow[], now: Date, minMinutes: number): boolean {
  return windows.some((w) => {
    const [begin, end] = [clock(w.begin), clock(w.end)];
    const today = Math.floor((now.getTime() + begin.offsetMs) / 86_400_000);
    return [today - 1, today].some((day) => {
      if (w.days?.length && !w.days.includes(DAYS[(day + 4) % 7] ?? '')) return false;
      const start = day * 86_400_000 + begin.ms - begin.offsetMs;
      let stop = day * 86_400_000 + end.ms - end.offsetMs;
      if (stop <= start) stop += 86_400_000;
      return start <= now.getTime() && stop - now.getTime() >= minMinutes * 60_000;
    });
  });
}

function clock(time: string): { ms: number; offsetMs: number } {
  const [, h, m, s, sign, oh, om] = TIME.exec(time) ?? [];
  const offset = sign ? (sign === '-' ? -1 : 1) * (Number(oh) * 60 + Number(om)) * 60_000 : 0;
  return { ms: ((Number(h) * 60 + Number(m)) * 60 + Number(s)) * 1000, offsetMs: offset };
}
