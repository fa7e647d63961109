// The README routes and docs/ holds the manual (issue 36): the README stays short, every relative link in it and in
// docs/ reaches a file that exists (and, for a link to a heading, that heading), the README links to every page of
// docs/, and those pages name each other by link, never as a bare or backticked path. Reads files, writes nothing.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './imports.ts';

const README_MAX_LINES = 300;

/** README.md and every markdown file under docs/, repository-relative. */
const pages = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => join('docs', file))
    .sort(),
];
const read = (file: string): string => readFileSync(join(ROOT, file), 'utf8');

/** The lines of a markdown text outside fenced code blocks (a fence's own lines and its content become empty). */
function prose(text: string): string[] {
  let fenced = false;
  return text.split('\n').map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return '';
    }
    return fenced ? '' : line;
  });
}

/** A line without its inline code spans. */
const withoutCode = (line: string): string => line.replace(/`[^`]*`/g, '');

/** The targets of the inline links and images of a markdown text (outside code). */
const LINK = /!?\[(?:[^\]\\]|\\.)*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g;
const linkTargets = (text: string): string[] =>
  prose(text).flatMap((line) => [...withoutCode(line).matchAll(LINK)].map((m) => m[1] ?? ''));

/** GitHub's anchor for a heading: inline markup dropped, lower case, punctuation removed, spaces become dashes. */
function slug(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/`/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '').replace(/ /g, '-');
}

/** The anchors of a markdown file's headings (repeated headings get -1, -2, … as on GitHub). */
function anchors(file: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const line of prose(read(file))) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    result.add(count === 0 ? base : `${base}-${count}`);
  }
  return result;
}

/** What is wrong with a relative link `target` written in `file`, or undefined when it reaches what it names. */
function brokenLink(file: string, target: string): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto:, …: not a file of this repository
  const [path = '', anchor] = target.split('#', 2);
  const resolved = path === '' ? file : relative(ROOT, join(ROOT, dirname(file), decodeURIComponent(path)));
  if (resolved.startsWith('..')) return `${file}: ${target} leaves the repository`;
  if (!existsSync(join(ROOT, resolved))) return `${file}: ${target} → ${resolved} does not exist`;
  if (
    anchor === undefined ||
    anchor === '' ||
    !resolved.endsWith('.md') ||
    statSync(join(ROOT, resolved)).isDirectory()
  )
    return undefined;
  return anchors(resolved).has(anchor) ? undefined : `${file}: ${target} → ${resolved} has no heading #${anchor}`;
}

describe('the README', () => {
  it(`routes: at most ${README_MAX_LINES} lines`, () => {
    expect(read('README.md').replace(/\n$/, '').split('\n').length).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it('links to every page of docs/ and to the index of decisions', () => {
    const linked = new Set(linkTargets(read('README.md')).map((target) => target.split('#')[0]));
    const docsPages = readdirSync(join(ROOT, 'docs'))
      .filter((file) => file.endsWith('.md'))
      .map((file) => `docs/${file}`);
    expect(docsPages.length).toBeGreaterThan(5);
    expect(docsPages.filter((page) => !linked.has(page))).toEqual([]);
    expect(linkTargets(read('README.md'))).toContain('docs/architecture.md#decision-records');
  });
});

describe('links in README.md and docs/', () => {
  it('finds the pages and their links', () => {
    expect(pages.length).toBeGreaterThan(40);
    expect(pages.flatMap((file) => linkTargets(read(file))).length).toBeGreaterThan(100);
  });

  it('every relative link reaches a file that exists, and a heading that exists when it names one', () => {
    const broken = pages
      .flatMap((file) => linkTargets(read(file)).map((target) => brokenLink(file, target)))
      .filter((problem) => problem !== undefined);
    expect(broken).toEqual([]);
  });

  it('the README and the pages of docs/ name other pages of docs/ by link, not as a bare or backticked path', () => {
    const names = readdirSync(join(ROOT, 'docs'))
      .filter((file) => file.endsWith('.md'))
      .map((file) => file.replace(/[.-]/g, '\\$&'));
    const mention = new RegExp(`\\bdocs/[\\w./-]*|(?<![\\w/.-])(?:adr/\\d{4}[\\w.-]*|(?:${names.join('|')}))`, 'g');
    const unlinked = pages
      .filter((file) => !file.startsWith('docs/adr/'))
      .flatMap((file) =>
        prose(read(file))
          .map((line, index) => ({ index, rest: line.replace(/!?\[(?:[^\]\\]|\\.)*\]\([^)]*\)/g, '') }))
          .flatMap(({ index, rest }) => [...rest.matchAll(mention)].map((m) => `${file}:${index + 1}: ${m[0]}`)),
      );
    expect(unlinked).toEqual([]);
  });

  it('the anchors are those GitHub makes', () => {
    expect(slug('Previewing a release: `plan`')).toBe('previewing-a-release-plan');
    expect(slug('2026-11-27: 5,000 × 5 and 1,000 × 5 after issues 21–25')).toBe(
      '2026-11-27-5000--5-and-1000--5-after-issues-2125',
    );
    expect(slug("Tested on Knative Eventing's own parts (`./dev test:knative`)")).toBe(
      'tested-on-knative-eventings-own-parts-dev-testknative',
    );
    expect(brokenLink('README.md', 'docs/nowhere.md')).toMatch(/does not exist/);
    expect(brokenLink('docs/operating.md', 'operating.md#no-such-heading')).toMatch(/has no heading/);
    expect(brokenLink('docs/operating.md', '#configuration')).toBeUndefined();
  });
});
