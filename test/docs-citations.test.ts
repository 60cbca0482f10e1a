import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/** README.md and every page of docs/: the documents that may cite a test. */
const DOCUMENTS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
];

/**
 * A citation: a test file as a code span, then a colon and the titles cited from it, each in
 * double quotes, separated by commas, as in `test/node/raw-http.test.ts`: "first", "second". A
 * title may wrap onto the next line; a `"` inside one is written `\"`.
 */
const CITATION = /`(test\/[\w./-]+\.ts)`(:\s*"(?:[^"\\]|\\.)*"(?:\s*,\s*"(?:[^"\\]|\\.)*")*)?/g;
const TITLE = /"((?:[^"\\]|\\.)*)"/g;
/** Any path under test/ written as a code span: it must exist. */
const TEST_PATH = /`(test\/[\w./-]+)`/g;
/** A file named with titles after it, but not in the citation form: not checked, so refused. */
const LOOSE_CITATION = /(?<![`\w/.-])([\w/.-]+\.ts):\s*"/g;

interface Citation {
  readonly file: string;
  readonly title: string;
}

function citationsIn(text: string): Citation[] {
  const citations: Citation[] = [];
  for (const [, file, titles] of text.matchAll(CITATION)) {
    for (const [, written] of (titles ?? '').matchAll(TITLE)) {
      const title = written!.replace(/\s+/g, ' ').replace(/\\(.)/g, '$1');
      citations.push({ file: file!, title });
    }
  }
  return citations;
}

/**
 * Whether `source` holds `title` as a string literal, in any of JavaScript's quotes: a title
 * made with describe.each or it.each is cited as its template (`refuses $name with 400`).
 */
function holdsTitle(source: string, title: string): boolean {
  return ["'", '"', '`'].some((quote) => {
    const escaped = title.replaceAll('\\', '\\\\').replaceAll(quote, `\\${quote}`);
    return source.includes(`${quote}${escaped}${quote}`);
  });
}

/** Every citation in `text` whose file is missing or holds no test of that title. */
function staleCitations(text: string, root = ROOT): string[] {
  const stale = new Set<string>();
  const paths = [
    ...Array.from(text.matchAll(TEST_PATH), ([, path]) => path!),
    ...citationsIn(text).map(({ file }) => file),
  ];
  for (const path of paths) {
    if (!existsSync(join(root, path))) stale.add(`${path}: no such file or folder`);
  }
  for (const { file, title } of citationsIn(text)) {
    const path = join(root, file);
    if (existsSync(path) && !holdsTitle(readFileSync(path, 'utf8'), title)) {
      stale.add(`${file}: "${title}"`);
    }
  }
  return [...stale];
}

/** Files named with titles after them in another form than the one checked. */
function looseCitations(text: string): string[] {
  return Array.from(text.matchAll(LOOSE_CITATION), ([match]) => match);
}

describe('the tests the documents cite', () => {
  it.each(DOCUMENTS)('exist, with every title %s cites', (document) => {
    const text = readFileSync(join(ROOT, document), 'utf8');
    expect(staleCitations(text)).toEqual([]);
  });

  it.each(DOCUMENTS)('are cited in %s as `test/<file>`: "<title>"', (document) => {
    const text = readFileSync(join(ROOT, document), 'utf8');
    expect(looseCitations(text)).toEqual([]);
  });

  it('are found in the documents', () => {
    const cited = DOCUMENTS.flatMap((document) =>
      citationsIn(readFileSync(join(ROOT, document), 'utf8')),
    );
    expect(cited.length).toBeGreaterThan(20);
  });
});

describe('a citation', () => {
  const cite = (title: string) => `Held by \`test/handler.test.ts\`: "${title}".`;

  it('holds when the title is in the file', () => {
    expect(
      staleCitations(cite('drops a client that stops reading once 1 MiB waits for it')),
    ).toEqual([]);
  });

  it('is stale once the test is renamed, or its title only begins the cited one', () => {
    const renamed = 'drops a client that stops reading once 2 MiB waits for it';
    const longer = 'drops a client that stops reading once 1 MiB waits for it, twice';
    expect(staleCitations(cite(renamed))).toEqual([`test/handler.test.ts: "${renamed}"`]);
    expect(staleCitations(cite(longer))).toEqual([`test/handler.test.ts: "${longer}"`]);
  });

  it('is stale when its file is missing', () => {
    expect(staleCitations('See `test/no-such.test.ts`: "anything".')).toEqual([
      'test/no-such.test.ts: no such file or folder',
    ]);
  });

  it('is refused in any other form, which could not be checked', () => {
    const text = 'held by node/raw-http.test.ts: "x"; and `test/handler.test.ts`: "y"';
    expect(looseCitations(text)).toEqual(['node/raw-http.test.ts: "']);
  });

  it('reads titles that wrap, hold escaped quotes, or are templates', () => {
    const text =
      '`test/a.ts`: "one\n  two", "a \\": ping\\" line"; `test/b.ts`: "refuses $name with 400"';
    expect(citationsIn(text)).toEqual([
      { file: 'test/a.ts', title: 'one two' },
      { file: 'test/a.ts', title: 'a ": ping" line' },
      { file: 'test/b.ts', title: 'refuses $name with 400' },
    ]);
    expect(
      holdsTitle("it.each(rows)('refuses $name with 400', run)", 'refuses $name with 400'),
    ).toBe(true);
    expect(holdsTitle(`it('sends a ": ping" comment', run)`, 'sends a ": ping" comment')).toBe(
      true,
    );
    expect(holdsTitle(`it("logs the client's id", run)`, "logs the client's id")).toBe(true);
  });
});
