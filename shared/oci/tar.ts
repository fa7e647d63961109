import { badContent } from './errors.ts';

/** A regular file inside a tar archive. */
export interface TarFile {
  path: string;
  data: Uint8Array;
}

const BLOCK = 512;
const MAX_SIZE = 0o77777777777;
const FORBIDDEN: Record<string, string> = {
  '1': 'hard link',
  '2': 'symbolic link',
  '3': 'character device',
  '4': 'block device',
  '6': 'FIFO',
  K: 'GNU long link',
};
const utf8 = new TextDecoder();
const encoder = new TextEncoder();

/** Reads a ustar/pax/GNU tar archive and returns its regular files in order. Directories, pax global headers
 * and macOS `._*` resource files are skipped; links, devices, absolute paths and `..` segments are rejected. */
export function readTar(tar: Uint8Array): TarFile[] {
  const files: TarFile[] = [];
  let offset = 0;
  let longName: string | undefined;
  while (offset + BLOCK <= tar.length) {
    const header = tar.subarray(offset, offset + BLOCK);
    if (header.every((b) => b === 0)) return files;
    checkHeader(header);
    const size = entrySize(header);
    const start = offset + BLOCK;
    if (start + size > tar.length) throw badContent('tar archive is truncated');
    const data = tar.subarray(start, start + size);
    offset = start + Math.ceil(size / BLOCK) * BLOCK;
    const type = String.fromCharCode(header[156] ?? 0);
    if (type === 'L') longName = cString(data);
    else if (type === 'x') longName = paxPath(data) ?? longName;
    else if (type !== 'g') {
      addEntry(files, type, longName ?? headerName(header), data);
      longName = undefined;
    }
  }
  if (offset < tar.length) throw badContent('tar archive is truncated');
  return files;
}

function addEntry(files: TarFile[], type: string, rawPath: string, data: Uint8Array): void {
  const path = safePath(rawPath);
  if (type === '5') return;
  const forbidden = FORBIDDEN[type];
  if (forbidden) throw badContent(`tar entry "${path}" is a ${forbidden}; only regular files are allowed`);
  if (type !== '0' && type !== '\0' && type !== '7')
    throw badContent(`tar entry "${path}" has unsupported type "${type}"`);
  if (!path) throw badContent('tar archive holds a file without a name');
  if (path.split('/').at(-1)?.startsWith('._')) return;
  files.push({ path, data: data.slice() });
}

/** Normalises an entry path; rejects absolute paths, drive letters, backslashes and `..` segments. */
export function safePath(raw: string): string {
  if (raw.includes('\0') || raw.includes('\\') || raw.startsWith('/') || /^[a-zA-Z]:/.test(raw)) {
    throw badContent(`tar entry "${raw.replaceAll('\0', '')}" has an absolute or unsafe path`);
  }
  const segments = raw.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) throw badContent(`tar entry "${raw}" escapes the archive with ".."`);
  return segments.join('/');
}

function checkHeader(header: Uint8Array): void {
  if (cString(header.subarray(257, 262)) !== 'ustar') throw badContent('not a ustar tar archive');
  const stored = parseInt(cString(header.subarray(148, 156)).trim(), 8);
  let sum = 0;
  header.forEach((b, i) => {
    sum += i >= 148 && i < 156 ? 32 : b;
  });
  if (stored !== sum) throw badContent('tar header checksum mismatch');
}

function entrySize(header: Uint8Array): number {
  if ((header[124] ?? 0) & 0x80) throw badContent('tar entry too large (base-256 size)');
  const text = cString(header.subarray(124, 136)).trim();
  if (!/^[0-7]*$/.test(text)) throw badContent('tar header has an invalid size');
  return text ? parseInt(text, 8) : 0;
}

function headerName(header: Uint8Array): string {
  const name = cString(header.subarray(0, 100));
  const posix = header[262] === 0; // "ustar\0" (POSIX, has a prefix field), GNU writes "ustar "
  const prefix = posix ? cString(header.subarray(345, 500)) : '';
  return prefix ? `${prefix}/${name}` : name;
}

/** The `path` record of a pax extended header (`<len> path=<value>\n` records). */
function paxPath(data: Uint8Array): string | undefined {
  let path: string | undefined;
  for (let pos = 0; pos < data.length;) {
    const space = data.indexOf(0x20, pos);
    const length = Number(utf8.decode(data.subarray(pos, space < 0 ? pos : space)));
    if (space < 0 || !Number.isInteger(length) || length <= space - pos || pos + length > data.length) {
      throw badContent('tar archive has a malformed pax header');
    }
    const record = utf8.decode(data.subarray(space + 1, pos + length - 1));
    if (record.startsWith('path=')) path = record.slice('path='.length);
    pos += length;
  }
  return path;
}

function cString(bytes: Uint8Array): string {
  const end = bytes.indexOf(0);
  return utf8.decode(end < 0 ? bytes : bytes.subarray(0, end));
}

/** Writes regular files as a deterministic ustar archive (mode 0644, uid/gid 0, mtime 0). */
export function writeTar(files: TarFile[]): Uint8Array {
  const parts = files.flatMap((f) => [
    fileHeader(f.path, f.data.length),
    f.data,
    new Uint8Array(padding(f.data.length)),
  ]);
  parts.push(new Uint8Array(2 * BLOCK));
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => {
    out.set(p, at);
    return at + p.length;
  }, 0);
  return out;
}

const padding = (size: number) => (BLOCK - (size % BLOCK)) % BLOCK;

function fileHeader(rawPath: string, size: number): Uint8Array {
  const path = safePath(rawPath);
  if (!path || path !== rawPath) throw badContent(`tar path "${rawPath}" is not a plain relative path`);
  if (size > MAX_SIZE) throw badContent(`tar entry "${path}" is too large`);
  const { prefix, name } = splitPath(path);
  const header = new Uint8Array(BLOCK);
  const put = (at: number, text: string) => header.set(encoder.encode(text), at);
  put(0, name);
  put(100, '0000644\0');
  put(108, '0000000\0');
  put(116, '0000000\0');
  put(124, `${size.toString(8).padStart(11, '0')}\0`);
  put(136, '00000000000\0');
  put(148, '        ');
  put(156, '0');
  put(257, 'ustar\u000000');
  put(345, prefix);
  const sum = header.reduce((n, b) => n + b, 0);
  put(148, `${sum.toString(8).padStart(6, '0')}\0 `);
  return header;
}

/** ustar keeps names up to 100 bytes, longer ones split at a `/` into a prefix of up to 155 bytes. */
function splitPath(path: string): { prefix: string; name: string } {
  const bytes = (s: string) => encoder.encode(s).length;
  if (bytes(path) <= 100) return { prefix: '', name: path };
  for (let i = path.indexOf('/'); i > 0; i = path.indexOf('/', i + 1)) {
    const prefix = path.slice(0, i);
    const name = path.slice(i + 1);
    if (bytes(prefix) <= 155 && bytes(name) <= 100) return { prefix, name };
  }
  throw badContent(`tar path "${path}" is too long for ustar`);
}
