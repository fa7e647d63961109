import { execFile } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';

const openssl = (cwd: string, ...args: string[]) => promisify(execFile)('openssl', args, { cwd });

/** Paths of one cluster's throwaway PKI (7-day ECDSA certificates made with openssl). */
export interface ClusterPki {
  dir: string;
  caCert: string;
  caKey: string;
  servingCert: string;
  servingKey: string;
  serviceAccountKey: string;
  serviceAccountPub: string;
}

export interface ClientCredentials {
  certPem: string;
  keyPem: string;
}

const SERVING_EXT = [
  'subjectAltName=DNS:localhost,IP:127.0.0.1,IP:10.0.0.1,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc',
  'extendedKeyUsage=serverAuth',
  'keyUsage=critical,digitalSignature,keyEncipherment',
  'basicConstraints=CA:FALSE',
].join('\n');
const CLIENT_EXT =
  'extendedKeyUsage=clientAuth\nkeyUsage=critical,digitalSignature,keyEncipherment\nbasicConstraints=CA:FALSE';

async function signedCert(dir: string, base: string, subject: string, ext: string): Promise<void> {
  await openssl(dir, 'ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', `${base}.key`);
  await openssl(dir, 'req', '-new', '-key', `${base}.key`, '-subj', subject, '-out', `${base}.csr`);
  await writeFile(join(dir, `${base}.ext`), ext);
  await openssl(
    dir,
    'x509',
    '-req',
    '-in',
    `${base}.csr`,
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '7',
    '-sha256',
    '-extfile',
    `${base}.ext`,
    '-out',
    `${base}.crt`,
  );
}

/** Creates a CA, the API server's serving certificate and the service-account signing pair in `dir`. */
export async function createClusterPki(dir: string, clusterName: string): Promise<ClusterPki> {
  await mkdir(dir, { recursive: true });
  await openssl(dir, 'ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'ca.key');
  await openssl(
    dir,
    'req',
    '-x509',
    '-new',
    '-key',
    'ca.key',
    '-sha256',
    '-days',
    '7',
    '-subj',
    `/CN=${clusterName}-ca`,
    '-addext',
    'basicConstraints=critical,CA:TRUE',
    '-addext',
    'keyUsage=critical,keyCertSign,cRLSign,digitalSignature',
    '-out',
    'ca.crt',
  );
  await signedCert(dir, 'apiserver', '/CN=kube-apiserver', SERVING_EXT);
  await openssl(dir, 'ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', 'sa.key');
  await openssl(dir, 'ec', '-in', 'sa.key', '-pubout', '-out', 'sa.pub');
  const at = (file: string) => join(dir, file);
  return {
    dir,
    caCert: at('ca.crt'),
    caKey: at('ca.key'),
    servingCert: at('apiserver.crt'),
    servingKey: at('apiserver.key'),
    serviceAccountKey: at('sa.key'),
    serviceAccountPub: at('sa.pub'),
  };
}

/** Issues a client certificate: CN is the user name, O the groups (system:masters bypasses RBAC). */
export async function issueClientCert(
  pki: ClusterPki,
  user: string,
  groups: string[] = [],
): Promise<ClientCredentials> {
  const base = `user-${user.replace(/[^a-zA-Z0-9-]/g, '_')}`;
  const subject = [...groups.map((g) => `/O=${g}`), `/CN=${user}`].join('');
  await signedCert(pki.dir, base, subject, CLIENT_EXT);
  return {
    certPem: await readFile(join(pki.dir, `${base}.crt`), 'utf8'),
    keyPem: await readFile(join(pki.dir, `${base}.key`), 'utf8'),
  };
}
