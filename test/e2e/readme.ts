// The documented commands, read from the page that documents them (the README or a page of docs/), so a test that
// runs them fails when a section is deleted or moved, or its command changes.
import { readFile } from 'node:fs/promises';

const README = new URL('../../README.md', import.meta.url);

/** The first ```bash block of the README section whose heading starts with `heading`. */
export function readmeBashBlock(heading: string): Promise<string> {
  return docBashBlock(README, heading);
}

/** The first ```bash block of the section of a page of the docs (`docs/<page>`, or the README) whose heading starts
 * with `heading`. */
export async function docBashBlock(page: URL | string, heading: string): Promise<string> {
  const file = typeof page === 'string' ? new URL(`../../docs/${page}`, import.meta.url) : page;
  const text = await readFile(file, 'utf8');
  const start = text
    .split('\n')
    .findIndex((line) => /^#{2,3} /.test(line) && line.replace(/^#+ /, '').startsWith(heading));
  if (start < 0) throw new Error(`${String(page)} has no section "${heading}"`);
  const section = text.split('\n').slice(start + 1);
  const end = section.findIndex((line) => /^#{2} /.test(line));
  const block = /```bash\n([\s\S]*?)\n```/.exec(section.slice(0, end < 0 ? undefined : end).join('\n'));
  if (!block?.[1]) throw new Error(`${String(page)} section "${heading}" has no bash block`);
  return block[1];
}

/** A shell function defined in a documented block (`name() { … }`, possibly over several lines). */
export function shellFunction(block: string, name: string): string {
  const match = new RegExp(`^${name}\\(\\) \\{[\\s\\S]*?; \\}`, 'm').exec(block);
  if (!match) throw new Error(`the documented block defines no shell function ${name}()`);
  return match[0];
}
