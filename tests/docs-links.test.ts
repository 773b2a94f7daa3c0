/**
 * Comments point only at documents the repository holds. Every `docs/<file>.md#anchor` (and
 * `README.md#anchor`) written in a source file names a file that exists and a heading in it, and no
 * source file sends its reader to the design notes that were never checked in (their names are in
 * OUTSIDE_DOCUMENTS). The folders are walked, so files that move are still covered.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FOLDERS = ['api', 'src', 'shared', 'scripts', 'bench', 'tests'];
const EXTENSIONS = new Set(['.css', '.ts', '.tsx', '.astro', '.js', '.mjs', '.cjs', '.jsx']);
const THIS_FILE = 'tests/docs-links.test.ts';

/** Documents outside the repository; naming them (or citing their sections) leaves the reader stranded. */
const OUTSIDE_DOCUMENTS = /\bSPEC\.md\b|\bAPI-NOTES\b|\bARCHITECTURE\.md\b|\bSPEC (section|order)\b/i;

/** A link to a heading of a repository document, as a comment writes it. */
const DOC_LINK = /\b((?:docs\/[\w-]+|README)\.md)#([\w-]+)/g;

function sourceFiles(): { file: string; text: string }[] {
  const found: { file: string; text: string }[] = [];
  for (const folder of FOLDERS) {
    const dir = path.join(ROOT, folder);
    if (!fs.existsSync(dir)) continue;
    for (const relative of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      const full = path.join(dir, relative);
      if (!EXTENSIONS.has(path.extname(relative)) || relative.split(path.sep).includes('node_modules') || !fs.statSync(full).isFile())
        continue;
      const file = path.relative(ROOT, full).split(path.sep).join('/');
      if (file !== THIS_FILE) found.push({ file, text: fs.readFileSync(full, 'utf8') });
    }
  }
  return found.sort((a, b) => a.file.localeCompare(b.file));
}

/** GitHub's anchor for a heading: lower-cased, punctuation dropped, spaces to '-'. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');
}

/** The anchors of a markdown file's headings (outside code fences); a repeated heading gets -1, -2, ... */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const found = new Set<string>();
  let fenced = false;
  for (const line of markdown.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const heading = fenced ? null : /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const base = slug(heading[1]);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    found.add(count === 0 ? base : `${base}-${count}`);
  }
  return found;
}

const lineOf = (text: string, index: number) => text.slice(0, index).split('\n').length;

describe('links from the code to the docs', () => {
  const files = sourceFiles();

  it('finds the sources', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((f) => f.file.endsWith('.astro'))).toBe(true);
  });

  it('slugs headings as GitHub does', () => {
    expect(slug('Post cards')).toBe('post-cards');
    expect(slug('Moderation and administration API')).toBe('moderation-and-administration-api');
    expect(slug('Shares ("Filehaus")')).toBe('shares-filehaus');
    expect(slug('Hash search (/search_hash)')).toBe('hash-search-search_hash');
    expect(slug('Auto-import (`api/importer/auto-import.ts`, `auto-import-scheduler.ts`)')).toBe(
      'auto-import-apiimporterauto-importts-auto-import-schedulerts',
    );
    expect([...anchors('# A\n## B\n```\n# not a heading\n```\n## B\n')]).toEqual(['a', 'b', 'b-1']);
  });

  it('never cites documents the repository does not hold', () => {
    const problems: string[] = [];
    for (const { file, text } of files) {
      text.split('\n').forEach((line, i) => {
        if (OUTSIDE_DOCUMENTS.test(line)) problems.push(`${file}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(problems).toEqual([]);
  });

  it('links only to headings that exist', () => {
    const cache = new Map<string, Set<string> | null>();
    const headingsOf = (doc: string) => {
      if (!cache.has(doc)) {
        const full = path.join(ROOT, doc);
        cache.set(doc, fs.existsSync(full) ? anchors(fs.readFileSync(full, 'utf8')) : null);
      }
      return cache.get(doc);
    };
    const problems: string[] = [];
    let links = 0;
    for (const { file, text } of files) {
      for (const match of text.matchAll(DOC_LINK)) {
        links++;
        const [, doc, anchor] = match;
        const headings = headingsOf(doc);
        if (headings === null) problems.push(`${file}:${lineOf(text, match.index)}: ${doc} does not exist`);
        else if (!headings?.has(anchor)) problems.push(`${file}:${lineOf(text, match.index)}: ${doc} has no heading #${anchor}`);
      }
    }
    expect(problems).toEqual([]);
    expect(links).toBeGreaterThan(0);
  });
});
