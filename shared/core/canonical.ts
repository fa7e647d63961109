/** JSON with object keys sorted at every level and undefined values dropped: equal data, equal text. Written in one
 * pass (no sorted copy of the value): applied hashes and drift comparisons run it on every object of every module. */
export function canonicalJson(value: unknown): string {
  return value === undefined ? (undefined as unknown as string) : write(value);
}

function write(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) {
    let text = '[';
    for (let i = 0; i < value.length; i++) text += `${i ? ',' : ''}${write(value[i])}`;
    return `${text}]`;
  }
  const record = value as Record<string, unknown>;
  let text = '{';
  let first = true;
  for (const key of orderedKeys(record)) {
    const item = record[key];
    if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
    text += `${first ? '' : ','}${JSON.stringify(key)}:${write(item)}`;
    first = false;
  }
  return `${text}}`;
}

/** The keys as a sorted copy's JSON.stringify lists them: array-index keys first in numeric order (Object.keys
 * gives them so already), then the others sorted by code unit. */
function orderedKeys(record: Record<string, unknown>): string[] {
  const keys = Object.keys(record);
  let indices = 0;
  while (indices < keys.length && isArrayIndex(keys[indices] ?? '')) indices++;
  return indices === 0 ? keys.sort() : [...keys.slice(0, indices), ...keys.slice(indices).sort()];
}

const isArrayIndex = (key: string) => /^(?:0|[1-9][0-9]{0,9})$/.test(key) && Number(key) < 4294967295;
