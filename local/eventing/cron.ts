// Standard 5-field cron schedules (minute hour day-of-month month day-of-week), evaluated in UTC. Pure.
// Semantics of robfig/cron (what Knative's PingSource uses): when both day fields are restricted, either may match.

export interface CronSchedule {
  readonly expression: string;
  readonly minutes: ReadonlySet<number>;
  readonly hours: ReadonlySet<number>;
  readonly daysOfMonth: ReadonlySet<number>;
  readonly months: ReadonlySet<number>;
  readonly daysOfWeek: ReadonlySet<number>;
  /** True when a day field is `*`/`?`: then both day fields must match, else either. */
  readonly anyDay: boolean;
}

interface FieldRange {
  readonly min: number;
  readonly max: number;
  readonly names?: readonly string[];
}

const MONTH_NAMES = ['', 'jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAY_NAMES = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const FIELDS: readonly FieldRange[] = [
  { min: 0, max: 59 },
  { min: 0, max: 23 },
  { min: 1, max: 31 },
  { min: 1, max: 12, names: MONTH_NAMES },
  { min: 0, max: 7, names: DAY_NAMES },
];
const DESCRIPTORS: Readonly<Record<string, string>> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** Parses a cron expression (fields: `*`, `?`, numbers, names, lists `a,b`, ranges `a-b`, steps `*\/n`, `a-b/n`, `a/n`). */
export function parseCron(expression: string): CronSchedule {
  const text = DESCRIPTORS[expression.trim().toLowerCase()] ?? expression.trim();
  if (text.startsWith('@'))
    throw new Error(`cron "${expression}": ${text.split(' ')[0]} is not supported; use 5 fields`);
  const fields = text.split(/\s+/);
  if (fields.length !== 5)
    throw new Error(
      `cron "${expression}": expected 5 fields (minute hour day-of-month month day-of-week), got ${fields.length}`,
    );
  const parsed = fields.map((field, i) => parseField(field, FIELDS[i] ?? { min: 0, max: 0 }, expression));
  const [minutes, hours, daysOfMonth, months, daysOfWeek] = parsed.map((p) => p.values);
  if (!minutes || !hours || !daysOfMonth || !months || !daysOfWeek) throw new Error(`cron "${expression}": incomplete`);
  if (daysOfWeek.delete(7)) daysOfWeek.add(0);
  return {
    expression,
    minutes,
    hours,
    daysOfMonth,
    months,
    daysOfWeek,
    anyDay: Boolean(parsed[2]?.star || parsed[4]?.star),
  };
}

/** True when the schedule fires in the (UTC) minute of `date`. */
export function cronMatches(schedule: CronSchedule, date: Date): boolean {
  const dayOfMonth = schedule.daysOfMonth.has(date.getUTCDate());
  const dayOfWeek = schedule.daysOfWeek.has(date.getUTCDay());
  const day = schedule.anyDay ? dayOfMonth && dayOfWeek : dayOfMonth || dayOfWeek;
  return (
    day &&
    schedule.minutes.has(date.getUTCMinutes()) &&
    schedule.hours.has(date.getUTCHours()) &&
    schedule.months.has(date.getUTCMonth() + 1)
  );
}

function parseField(field: string, range: FieldRange, expression: string): { values: Set<number>; star: boolean } {
  const values = new Set<number>();
  let star = false;
  for (const part of field.split(',')) {
    const [span = '', stepText] = part.split('/');
    const step = stepText === undefined ? 1 : number(stepText, range, expression, 1, range.max);
    let [low, high] = [range.min, range.max];
    if (span === '*' || span === '?') star ||= step === 1;
    else {
      const [from = '', to] = span.split('-');
      low = number(from, range, expression);
      high = to !== undefined ? number(to, range, expression) : stepText === undefined ? low : range.max;
    }
    if (low > high) throw new Error(`cron "${expression}": range ${span} runs backwards`);
    for (let v = low; v <= high; v += step) values.add(v);
  }
  return { values, star };
}

function number(text: string, range: FieldRange, expression: string, min = range.min, max = range.max): number {
  const named = range.names?.indexOf(text.toLowerCase()) ?? -1;
  const value = named >= 0 ? named : /^\d+$/.test(text) ? Number(text) : NaN;
  if (!Number.isInteger(value) || value < min || value > max)
    throw new Error(`cron "${expression}": "${text}" is not a value from ${min} to ${max}`);
  return value;
}
