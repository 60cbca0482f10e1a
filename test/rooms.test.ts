import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/** What test/support/count-rooms.mjs measures: the files a POST of an item passes, per host. */
const measured = JSON.parse(
  execFileSync(process.execPath, ['test/support/count-rooms.mjs'], { encoding: 'utf8' }),
) as { node: string[]; workerd: string[] };

/** The files docs/layout.md lists under the heading `heading`, in the order it lists them. */
function listedUnder(heading: string): string[] {
  const layout = readFileSync('docs/layout.md', 'utf8');
  const start = layout.indexOf(`\n### ${heading}\n`);
  if (start === -1) throw new Error(`docs/layout.md has no heading "### ${heading}".`);
  const end = layout.indexOf('\n#', start + 1);
  const section = layout.slice(start, end === -1 ? undefined : end);
  return [...section.matchAll(/^- `(src\/[^`]+)`/gm)].map((match) => match[1]!);
}

describe('a POST of an item on a named list, once warm', () => {
  it.each([
    ['on Node, the lists in memory', 'node', 12],
    ['on workerd', 'workerd', 16],
  ] as const)('passes, %s, the files docs/layout.md lists, %i at most', (heading, host, most) => {
    const listed = listedUnder(`A POST ${heading}`);
    expect([...listed].sort()).toEqual(measured[host]);
    expect(listed.length).toBeLessThanOrEqual(most);
  });
});
