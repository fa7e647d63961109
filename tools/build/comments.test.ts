// Comments in what ships state a rule in a sentence; the reasoning lives in the ADR they cite (issue 36).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, sourcesIn } from './imports.ts';

const MAX_COMMENT_LINES = 3;
const SHIPPED = ['functions', 'shared', 'components'];

/** PURE. Each comment block of `source` (a `/* … *\/` block, or `//` lines in a row) as its first line and length. */
export function commentBlocks(source: string): { line: number; lines: number }[] {
  const lines = source.split('\n');
  const blocks: { line: number; lines: number }[] = [];
  for (let i = 0; i < lines.length; i++) {
    const text = (lines[i] ?? '').trim();
    let end = i;
    if (text.startsWith('/*')) while (end < lines.length - 1 && !(lines[end] ?? '').includes('*/')) end++;
    else if (text.startsWith('//')) while ((lines[end + 1] ?? '').trim().startsWith('//')) end++;
    else continue;
    blocks.push({ line: i + 1, lines: end - i + 1 });
    i = end;
  }
  return blocks;
}

describe('comments in shipped code', () => {
  it('finds block and line comments with their lengths', () => {
    const source = [
      '/** one */',
      'const a = 1;',
      '// two',
      '// lines',
      'const b = 2; // trailing',
      '/*',
      ' * x',
      ' */',
    ];
    expect(commentBlocks(source.join('\n'))).toEqual([
      { line: 1, lines: 1 },
      { line: 3, lines: 2 },
      { line: 6, lines: 3 },
    ]);
  });

  it.each(SHIPPED)(`%s: no comment longer than ${MAX_COMMENT_LINES} lines`, (dir) => {
    const long = sourcesIn(dir).flatMap((file) =>
      commentBlocks(readFileSync(join(ROOT, file), 'utf8'))
        .filter((block) => block.lines > MAX_COMMENT_LINES)
        .map((block) => `${file}:${block.line} (${block.lines} lines)`),
    );
    expect(long).toEqual([]);
  });
});
