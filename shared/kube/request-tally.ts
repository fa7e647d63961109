// Which function makes which Kubernetes requests (issue 20): when counting is on (the bench turns it on), every
// request of a KubeClient is counted by the function whose call made it, the API server it went to, its verb and its
// resource — the API servers' own metrics say what arrived, this says who sent it. Off, it costs one check a request.
import { callContext, withinCall } from '../host/call-context.ts';

let counts: Map<string, number> | undefined;
let calls: Map<string, number> | undefined;

/** Runs `work` as a call of function `name`: the requests it makes are counted for that function. */
export const asCaller = <T>(name: string, work: () => Promise<T>): Promise<T> => withinCall({ caller: name }, work);

/** PURE. The caller a call's requests are counted under: `<function> (drift)` for a drift check, else `<function> ←
 * <event> <kind>` (the event type's last two words), so the bench tells which events cost what (issue 35). */
export const callerName = (fn: string, drift: boolean, type: string, kind: string): string =>
  drift ? `${fn} (drift)` : `${fn} ← ${type.split('.').slice(-2).join('.')}${kind ? ` ${kind}` : ''}`;

/** PURE. The function a caller name counts for (its part before the event). */
export const functionOfCaller = (caller: string): string => caller.split(' ← ')[0] ?? caller;

/** Starts counting requests and calls (from zero) or stops it. */
export function countRequests(on: boolean): void {
  counts = on ? new Map() : undefined;
  calls = on ? new Map() : undefined;
}

/** Counts one call a function handled, under its caller name, when counting is on. */
export function tallyCall(caller: string): void {
  if (calls) calls.set(caller, (calls.get(caller) ?? 0) + 1);
}

/** The calls counted since counting started, by caller name. */
export const callTally = (): Record<string, number> => Object.fromEntries(calls ?? []);

export interface TalliedRequest {
  caller: string;
  server: string;
  verb: string;
  resource: string;
  count: number;
}

/** What was counted since counting started, as rows. */
export function requestTally(): TalliedRequest[] {
  return [...(counts ?? new Map<string, number>())].map(([key, count]) => {
    const [who = '', server = '', verb = '', resource = ''] = key.split('\t');
    return { caller: who, server, verb, resource, count };
  });
}

/** Counts one request when counting is on. */
export function tally(server: string, method: string, path: string, contentType: string): void {
  if (!counts) return;
  const { verb, resource } = requestShape(method, path, contentType);
  const key = `${callContext().caller ?? 'other'}\t${server}\t${verb}\t${resource}`;
  counts.set(key, (counts.get(key) ?? 0) + 1);
}

/** The verbs (as requestShape names them) that write. */
export const WRITE_VERBS: ReadonlySet<string> = new Set([
  'create',
  'update',
  'patch',
  'apply',
  'delete',
  'deletecollection',
]);

/** Counts a connection opened (a TLS handshake) for a request when counting is on: verb `connect`, resource `tls`. */
export function tallyConnection(server: string, socket: { connecting?: boolean }): void {
  if (counts && socket.connecting) tally(server, 'CONNECT', '', '');
}

/** PURE. A request as the API server's metrics name it: verb (get, list, watch, create, apply, patch, update, delete)
 * and resource (`plural.group`, `/subresource` appended). */
export function requestShape(method: string, path: string, contentType = ''): { verb: string; resource: string } {
  if (method === 'CONNECT') return { verb: 'connect', resource: 'tls' };
  const [route = '', query = ''] = path.split('?');
  const parts = route.split('/').filter(Boolean);
  if (parts[0] !== 'api' && parts[0] !== 'apis') return { verb: method.toLowerCase(), resource: `/${parts.join('/')}` };
  const group = parts[0] === 'apis' ? (parts[1] ?? '') : '';
  let rest = parts.slice(parts[0] === 'apis' ? 3 : 2);
  if (rest[0] === 'namespaces' && rest.length >= 3) rest = rest.slice(2);
  const [plural = '', name, sub] = rest;
  const resource = `${plural || 'discovery'}${group ? `.${group}` : ''}${sub ? `/${sub}` : ''}`;
  const verb =
    method === 'GET'
      ? name
        ? 'get'
        : /(^|&)watch=(1|true)/.test(query)
          ? 'watch'
          : 'list'
      : method === 'PATCH'
        ? contentType.startsWith('application/apply-patch')
          ? 'apply'
          : 'patch'
        : method === 'POST'
          ? 'create'
          : method === 'PUT'
            ? 'update'
            : method.toLowerCase();
  return { verb, resource };
}
