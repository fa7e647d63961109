// A KCP of its own with the kube-apiserver's audit log on: which identity made which request, as the API server
// saw it. Used to prove what each ServiceAccount of manifests/ needs and uses.
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { inject } from 'vitest';
import { BINARY_NAMES, startCluster, type Binaries, type Cluster } from '../../local/controlplane/index.ts';

/** One audited request: who, what, where, and the answer. */
export interface AuditedRequest {
  user: string;
  verb: string;
  /** `resource` or `resource/subresource`, with the API group: `secrets`, `kymas.operator.kyma-project.io/status`. */
  resource: string;
  namespace: string;
  name: string;
  code: number;
  /** The client's user agent (the plan's is its own: components/fleet/plan/read-only.ts). */
  userAgent: string;
  /** Path and query as sent: a dry-run write has `dryRun=All` in it (the audit event has no field of its own for it). */
  requestURI: string;
}

/** Audit at Metadata level what the given users or groups do, nothing else. */
const policy = (who: { users?: string[]; userGroups?: string[] }) => `apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: Metadata
${who.users ? `    users: ${JSON.stringify(who.users)}\n` : ''}${who.userGroups ? `    userGroups: ${JSON.stringify(who.userGroups)}\n` : ''}  - level: None
`;

export function testBinaries(): Binaries {
  const dir = inject('controlPlane').binDir;
  return Object.fromEntries(BINARY_NAMES.map((name) => [name, `${dir}/${name}`])) as Binaries;
}

/** A KCP whose audit log records what every ServiceAccount does. */
export function startAuditedKcp(name: string): Promise<{ cluster: Cluster; auditLog: string }> {
  return startAuditedCluster(name, { userGroups: ['system:serviceaccounts'] }, { garbageCollection: true });
}

/** A cluster whose audit log records what the given users or groups do (a runtime: `workloads: true`, or
 * `'simulated'`: kwok marks a new Deployment generation rolled out). */
export async function startAuditedCluster(
  name: string,
  who: { users?: string[]; userGroups?: string[] },
  kind: { garbageCollection?: boolean; workloads?: boolean | 'simulated' },
): Promise<{ cluster: Cluster; auditLog: string }> {
  const runDir = inject('controlPlane').runDir;
  const dir = join(runDir, `${name}-audit`);
  await mkdir(dir, { recursive: true });
  const policyFile = join(dir, 'policy.yaml');
  const auditLog = join(dir, 'audit.log');
  await writeFile(policyFile, policy(who));
  const cluster = await startCluster({
    name,
    runDir,
    binaries: testBinaries(),
    ...kind,
    apiServerFlags: [`--audit-policy-file=${policyFile}`, `--audit-log-path=${auditLog}`, '--audit-log-mode=blocking'],
  });
  return { cluster, auditLog };
}

/** The requests of the audit log, in order: complete ones, and watches once started (they may never complete). */
export async function readAudit(auditLog: string): Promise<AuditedRequest[]> {
  const text = await readFile(auditLog, 'utf8').catch(() => '');
  return text
    .split('\n')
    .filter(Boolean)
    .map((line) => JSON.parse(line) as AuditEvent)
    .filter((e) => e.objectRef && once(e))
    .map((e) => ({
      user: e.user.username,
      verb: e.verb,
      resource: resourceOf(e.objectRef ?? {}),
      namespace: e.objectRef?.namespace ?? '',
      name: e.objectRef?.name ?? '',
      code: e.responseStatus?.code ?? 0,
      userAgent: e.userAgent ?? '',
      requestURI: e.requestURI ?? '',
    }));
}

interface AuditEvent {
  stage: string;
  verb: string;
  user: { username: string };
  userAgent?: string;
  requestURI?: string;
  objectRef?: { resource?: string; subresource?: string; namespace?: string; name?: string; apiGroup?: string };
  responseStatus?: { code?: number };
}

/** A watch is logged when it starts and again when it ends; a refused one only ends. Everything else: when complete. */
function once(e: AuditEvent): boolean {
  if (e.verb !== 'watch') return e.stage === 'ResponseComplete';
  return e.stage === 'ResponseStarted' || (e.stage === 'ResponseComplete' && (e.responseStatus?.code ?? 0) >= 400);
}

function resourceOf(ref: NonNullable<AuditEvent['objectRef']>): string {
  const base = ref.apiGroup ? `${ref.resource}.${ref.apiGroup}` : (ref.resource ?? '');
  return ref.subresource ? `${base}/${ref.subresource}` : base;
}
