import { describe, expect, it } from 'vitest';
import { readTar, writeTar } from './tar.ts';

const text = (s: string) => new TextEncoder().encode(s);
const END = new Uint8Array(1024);

/** One raw tar entry, written by hand so that the test can also build what writeTar refuses to write. */
function entry(path: string, type: string, data: Uint8Array = new Uint8Array(), link = ''): Uint8Array {
  const header = new Uint8Array(512);
  const put = (at: number, s: string) => header.set(text(s), at);
  put(0, path.slice(0, 100));
  put(100, '0000644\0');
  put(124, `${data.length.toString(8).padStart(11, '0')}\0`);
  put(148, '        ');
  put(156, type);
  put(157, link);
  put(257, 'ustar\u000000');
  put(
    148,
    `${header
      .reduce((n, b) => n + b, 0)
      .toString(8)
      .padStart(6, '0')}\0 `,
  );
  const padded = new Uint8Array(Math.ceil(data.length / 512) * 512);
  padded.set(data);
  return concat(header, padded);
}

function concat(...parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  parts.reduce((at, p) => {
    out.set(p, at);
    return at + p.length;
  }, 0);
  return out;
}

const paxRecord = (key: string, value: string) => {
  const body = ` ${key}=${value}\n`;
  let length = body.length + 1;
  while (`${length}${body}`.length !== length) length++;
  return `${length}${body}`;
};

describe('readTar', () => {
  it('round-trips files written by writeTar, including paths longer than 100 bytes', () => {
    const long = `${'dir/'.repeat(30)}raw-manifest.yaml`;
    const files = [
      { path: 'raw-manifest.yaml', data: text('kind: ConfigMap\n') },
      { path: long, data: new Uint8Array(1500).fill(7) },
    ];
    expect(readTar(writeTar(files))).toEqual(files);
  });

  it('skips directories and macOS resource files, keeps order', () => {
    const tar = concat(
      entry('./', '5'),
      entry('m/', '5'),
      entry('m/._a.yaml', '0', text('junk')),
      entry('m/a.yaml', '0', text('a')),
      entry('./b.yaml', '\0', text('b')),
      END,
    );
    expect(readTar(tar)).toEqual([
      { path: 'm/a.yaml', data: text('a') },
      { path: 'b.yaml', data: text('b') },
    ]);
  });

  it('takes names from GNU long-name and pax headers', () => {
    const long = `${'x'.repeat(120)}/f.yaml`;
    const tar = concat(
      entry('././@LongLink', 'L', text(`${long}\0`)),
      entry('short', '0', text('1')),
      entry('PaxHeaders/p', 'x', text(paxRecord('path', `p/${long}`))),
      entry('short', '0', text('2')),
      END,
    );
    expect(readTar(tar).map((f) => f.path)).toEqual([long, `p/${long}`]);
  });

  it.each([
    ['absolute path', entry('/etc/passwd', '0', text('x')), /absolute or unsafe/],
    ['parent traversal', entry('a/../../etc/passwd', '0', text('x')), /escapes the archive/],
    ['traversal in a directory', entry('../up/', '5'), /escapes the archive/],
    [
      'traversal in a long name',
      concat(entry('././@LongLink', 'L', text('../x\0')), entry('x', '0')),
      /escapes the archive/,
    ],
    ['backslash path', entry('a\\..\\b', '0'), /absolute or unsafe/],
    ['symbolic link', entry('link', '2', new Uint8Array(), '/etc/passwd'), /symbolic link/],
    ['hard link', entry('link', '1', new Uint8Array(), 'other'), /hard link/],
    ['character device', entry('tty', '3'), /character device/],
    ['FIFO', entry('pipe', '6'), /FIFO/],
    ['unknown type', entry('odd', 'Z'), /unsupported type/],
  ])('rejects a %s', (_, tar, message) => {
    expect(() => readTar(concat(tar, END))).toThrow(message);
  });

  it.each([
    [
      'a broken checksum',
      (() => {
        const t = entry('a', '0', text('a'));
        t[0] = 98;
        return t;
      })(),
      /checksum/,
    ],
    ['a non-tar blob', concat(text('apiVersion: v1\n'), new Uint8Array(600)), /not a ustar/],
    ['a truncated entry', entry('a', '0', new Uint8Array(2000)).subarray(0, 1024), /truncated/],
    ['a truncated block', concat(entry('a', '0', text('a')), new Uint8Array(100).fill(1)), /truncated/],
  ])('rejects %s', (_, tar, message) => {
    expect(() => readTar(tar)).toThrow(message);
  });

  it('errors are RegistryErrors with code BadContent', () => {
    expect(() => readTar(concat(entry('/x', '0'), END))).toThrow(
      expect.objectContaining({ code: 'BadContent', retryable: false }),
    );
  });
});

describe('writeTar', () => {
  it('is deterministic and padded to 512-byte blocks with an end marker', () => {
    const files = [{ path: 'a.yaml', data: text('a: 1\n') }];
    const tar = writeTar(files);
    expect(tar).toEqual(writeTar(files));
    expect(tar.length).toBe(512 + 512 + 1024);
  });

  it.each([
    ['an absolute path', '/a'],
    ['a traversal', 'a/../b'],
    ['a non-normalised path', './a'],
    ['an empty path', ''],
    ['a name no ustar split fits', `${'y'.repeat(101)}`],
  ])('refuses %s', (_, path) => {
    expect(() => writeTar([{ path, data: new Uint8Array() }])).toThrow(expect.objectContaining({ code: 'BadContent' }));
  });
});
