// Generated broken CloudEvents (fast-check arbitraries): every request is wrong in at least one way a function
// must refuse with a 4xx before it reads or writes anything — bad specversion, missing attributes or object-key
// extensions, malformed extensions, unknown types, wrong content types, broken or batched bodies, huge bodies.
import fc from 'fast-check';
import { MODULES_DUE } from '../../shared/host/events.ts';
import { DUE_MANIFESTS } from '../../shared/host/modules-due.ts';

export interface BrokenRequest {
  /** What is wrong with it (shown when a run fails). */
  why: string;
  headers: Record<string, string>;
  body: string;
}

const HUGE = `{"padding":"${'x'.repeat(1024 * 1024 + 10)}"}`;
/** Header-safe text: printable ASCII (fetch refuses control characters in header values). */
const text = (max = 40) =>
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength: max });
const KEY_EXTENSIONS = ['ce-kind', 'ce-apiversion', 'ce-name'] as const;

/** A well-formed binary-mode event the function accepts (the starting point every mutation breaks). */
export function validHeaders(type: string, keyless: boolean, id: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'ce-specversion': '1.0',
    'ce-id': id,
    'ce-source': '/hostile-test',
    'ce-type': type,
    ...(keyless
      ? {}
      : {
          'ce-kind': 'Kyma',
          'ce-apiversion': 'operator.kyma-project.io/v1beta2',
          'ce-namespace': 'kcp-system',
          'ce-name': `kyma-${id}`,
        }),
  };
}

const without = (headers: Record<string, string>, ...names: string[]) =>
  Object.fromEntries(Object.entries(headers).filter(([k]) => !names.includes(k)));

/** Values each object-key extension must refuse: fixed cases, and random text holding a character no Kubernetes
 * name, namespace, kind or apiVersion may contain. */
const FORBIDDEN_CHARS = ' ?#%\\"<>{}|^`~!@$&*()=+[];,\'';
const BAD_VALUES: Record<string, readonly string[]> = {
  'ce-kind': ['kyma', 'Kyma/status', '9Kyma', 'Ky-ma', 'K'.repeat(64)],
  'ce-apiversion': ['v1/', 'a/b/v1', 'operator.kyma-project.io', 'v0', 'V1', '/v1', 'v1?watch=1'],
  'ce-name': ['..', '.', '../../api/v1/secrets', 'UPPER', '-dash', 'dash-', 'x'.repeat(254), 'ns/name', '%2e%2e'],
  'ce-namespace': ['kcp.system', 'UPPER', '-ns', 'n'.repeat(64), 'a/b', '..'],
};
const badValue = (extension: string) =>
  fc.oneof(
    fc.constantFrom(...(BAD_VALUES[extension] ?? [])),
    fc.tuple(text(30), fc.constantFrom(...FORBIDDEN_CHARS), text(30)).map(([a, c, b]) => `x${a}${c}${b}x`),
  );

export function brokenRequests(accepts: readonly string[], keyless: boolean): fc.Arbitrary<BrokenRequest> {
  const type = fc.constantFrom(...accepts);
  const id = fc.stringMatching(/^[a-z0-9]{1,12}$/);
  const base = fc.tuple(type, id).map(([t, i]) => validHeaders(t, keyless, i));
  const body = fc.constantFrom('{}', '', '{"metadata":{"name":"x"}}');
  const mutations: fc.Arbitrary<BrokenRequest>[] = [
    fc
      .tuple(
        base,
        fc.oneof(
          fc.constantFrom('0.3', '2.0', '1', '1.0.0', 'v1.0', 'one'),
          text(8).filter((s) => s.trim() !== '1.0' && s.trim() !== ''),
        ),
        body,
      )
      .map(([h, v, b]) => ({
        why: `specversion ${JSON.stringify(v)}`,
        headers: { ...h, 'ce-specversion': v },
        body: b,
      })),
    fc
      .tuple(base, fc.subarray(['ce-id', 'ce-source', 'ce-type', 'ce-specversion'], { minLength: 1 }), body)
      .map(([h, drop, b]) => ({ why: `missing ${drop.join(', ')}`, headers: without(h, ...drop), body: b })),
    fc
      .tuple(
        base,
        text(60).filter((t) => !accepts.includes(t) && t.trim() === t && t.length > 0),
        body,
      )
      .map(([h, t, b]) => ({ why: `unknown type ${JSON.stringify(t)}`, headers: { ...h, 'ce-type': t }, body: b })),
    fc
      .tuple(
        base,
        fc.constantFrom(
          'application/json',
          'text/plain',
          'application/xml',
          'application/x-www-form-urlencoded',
          'application/octet-stream',
        ),
      )
      .map(([h, ct]) => ({
        why: `structured event sent as ${ct}`,
        headers: { 'content-type': ct },
        body: JSON.stringify(structured(h)),
      })),
    fc
      .tuple(
        base,
        fc.oneof(
          text(200),
          fc.constantFrom('{', '[]', 'null', '{"specversion":"1.0"}', '{"specversion":"1.0","id":"x","source":"/s"}'),
        ),
      )
      .map(([, b]) => ({
        why: `structured body ${JSON.stringify(b.slice(0, 40))}`,
        headers: { 'content-type': 'application/cloudevents+json' },
        body: b,
      })),
    base.map((h) => ({
      why: 'batched events',
      headers: { 'content-type': 'application/cloudevents-batch+json' },
      body: JSON.stringify([structured(h), structured(h)]),
    })),
    fc.tuple(base, fc.constantFrom('binary', 'structured')).map(([h, mode]) => ({
      why: `huge ${mode} body`,
      headers: mode === 'binary' ? h : { 'content-type': 'application/cloudevents+json' },
      body: mode === 'binary' ? HUGE : JSON.stringify({ ...structured(h), data: HUGE }),
    })),
    fc.tuple(base, fc.uint8Array({ maxLength: 300 })).map(([h, bytes]) => ({
      why: 'binary garbage as JSON',
      headers: h,
      body: `{\u0000${Buffer.from(bytes).toString('latin1')}`,
    })), // NUL after `{`: never valid JSON (`{}` was)
  ];
  if (!keyless) {
    mutations.push(
      fc
        .tuple(base, fc.subarray([...KEY_EXTENSIONS], { minLength: 1 }), body)
        .map(([h, drop, b]) => ({ why: `missing ${drop.join(', ')}`, headers: without(h, ...drop), body: b })),
      fc
        .tuple(
          base,
          fc.constantFrom(...Object.keys(BAD_VALUES)).chain((ext) => fc.tuple(fc.constant(ext), badValue(ext))),
          body,
        )
        .map(([h, [ext, v], b]) => ({
          why: `${ext} ${JSON.stringify(v.slice(0, 40))}`,
          headers: { ...h, [ext]: v },
          body: b,
        })),
    );
  }
  return fc.oneof(...mutations);
}

/** The same event in structured mode (attributes in the JSON body). */
function structured(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([k]) => k.startsWith('ce-'))
      .map(([k, v]) => [k.slice(3), v]),
  );
}

/** Well-formed events about objects that do not exist (random valid keys): nothing to do, nothing written. */
export function eventsAboutNothing(accepts: readonly string[], kinds: readonly string[]): fc.Arbitrary<BrokenRequest> {
  const keyless = kinds.length === 0;
  const name = fc.stringMatching(/^[a-z0-9]([-a-z0-9]{0,30}[a-z0-9])?$/);
  const kind = keyless ? fc.constant('') : fc.constantFrom(...kinds);
  return fc
    .tuple(fc.constantFrom(...accepts), fc.stringMatching(/^[a-z0-9]{1,12}$/), kind, name)
    .map(([type, id, k, n]) => {
      // A Kyma's modules due (ADR 94) is about a Kyma and names its Manifests: here ones that do not exist either.
      const modules = type === MODULES_DUE ? { 'ce-kind': 'Kyma', [`ce-${DUE_MANIFESTS}`]: `${n}-a,${n}-b` } : {};
      return {
        why: `${type} about ${type === MODULES_DUE ? 'Kyma' : k} ${n}`,
        headers: { ...validHeaders(type, keyless, id), ...(keyless ? {} : { 'ce-kind': k, 'ce-name': n }), ...modules },
        body: '{}',
      };
    });
}
