// Label and field selectors evaluated against objects held in memory (the read cache). Pure.

export interface SelectedObject {
  metadata?:
    | { name?: string | undefined; namespace?: string | undefined; labels?: Record<string, string> | undefined }
    | undefined;
}

/** One term of an equality-based selector: `key=value` / `key==value` / `key!=value` / `key` / `!key`. */
type Term = { key: string; op: '=' | '!=' | 'exists' | 'absent'; value?: string };

/** The terms of an equality-based selector, or undefined for what this evaluator does not handle (set-based `in`). */
export function selectorTerms(selector: string | undefined): Term[] | undefined {
  if (!selector?.trim()) return [];
  const terms: Term[] = [];
  for (const raw of selector.split(',')) {
    const part = raw.trim();
    if (/\s(in|notin)\s|\(/.test(part)) return undefined;
    const match = /^([^=!]+?)\s*(==|=|!=)\s*(.*)$/.exec(part);
    if (match) terms.push({ key: match[1] as string, op: match[2] === '!=' ? '!=' : '=', value: match[3] ?? '' });
    else if (part.startsWith('!')) terms.push({ key: part.slice(1).trim(), op: 'absent' });
    else terms.push({ key: part, op: 'exists' });
  }
  return terms;
}

function holds(term: Term, value: string | undefined): boolean {
  switch (term.op) {
    case '=':
      return value === term.value;
    case '!=':
      return value !== term.value;
    case 'exists':
      return value !== undefined;
    case 'absent':
      return value === undefined;
  }
}

export const labelsMatch = (object: SelectedObject, terms: readonly Term[]) =>
  terms.every((t) => holds(t, object.metadata?.labels?.[t.key]));

/** Field selectors on metadata.name / metadata.namespace only; undefined for any other field. */
export function fieldTerms(selector: string | undefined): Term[] | undefined {
  const terms = selectorTerms(selector);
  return terms?.every((t) => t.key === 'metadata.name' || t.key === 'metadata.namespace') ? terms : undefined;
}

export const fieldsMatch = (object: SelectedObject, terms: readonly Term[]) =>
  terms.every((t) => holds(t, t.key === 'metadata.name' ? object.metadata?.name : (object.metadata?.namespace ?? '')));

/** Whether every object `request` selects is also selected by `scope` (each scope term appears in the request, or
 * an equality on the same key satisfies an existence term). */
export function narrowerThan(request: readonly Term[], scope: readonly Term[]): boolean {
  return scope.every((s) =>
    request.some(
      (r) =>
        r.key === s.key &&
        ((r.op === s.op && r.value === s.value) || (s.op === 'exists' && (r.op === '=' || r.op === 'exists'))),
    ),
  );
}
