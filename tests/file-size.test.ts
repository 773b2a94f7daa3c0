/**
 * Every source file stays under 500 lines: the files under src/ (css, ts, tsx, astro), shared/, api/,
 * scripts/, and the tests and benchmarks (tests/, bench/), found by walking those folders (files move
 * between them; no path is listed here).
 *
 * KNOWN_OFFENDERS are the files still over the limit, with the size they had when the list was made.
 * The list may only shrink: a listed file may not grow, and once it is split under the limit (or is gone)
 * its entry must be removed. Entries are path suffixes, so a file moved to another folder keeps its entry.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FOLDERS = ['src', 'shared', 'api', 'scripts', 'tests', 'bench'];
const EXTENSIONS = new Set(['.css', '.ts', '.tsx', '.astro', '.js', '.mjs', '.cjs', '.jsx']);
const MAX_LINES = 500;

/** Path suffix (from a folder boundary) to the number of lines the file had when it was listed. */
const KNOWN_OFFENDERS: Record<string, number> = {};

/** Lines as an editor counts them: a final newline does not start another line. */
function countLines(text: string): number {
  if (text === '') return 0;
  const newlines = text.split('\n').length - 1;
  return text.endsWith('\n') ? newlines : newlines + 1;
}

function sourceFiles(): { file: string; lines: number }[] {
  const found: { file: string; lines: number }[] = [];
  for (const folder of FOLDERS) {
    const dir = path.join(ROOT, folder);
    if (!fs.existsSync(dir)) continue;
    for (const relative of fs.readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      const full = path.join(dir, relative);
      if (!EXTENSIONS.has(path.extname(relative)) || relative.split(path.sep).includes('node_modules') || !fs.statSync(full).isFile())
        continue;
      found.push({ file: path.relative(ROOT, full).split(path.sep).join('/'), lines: countLines(fs.readFileSync(full, 'utf8')) });
    }
  }
  return found.sort((a, b) => a.file.localeCompare(b.file));
}

const matches = (file: string, suffix: string) => file === suffix || file.endsWith(`/${suffix}`);

describe('source file sizes', () => {
  const files = sourceFiles();

  it('finds the sources', () => {
    expect(files.length).toBeGreaterThan(100);
    expect(files.some((f) => f.file.endsWith('.css'))).toBe(true);
    expect(files.some((f) => f.file.endsWith('.astro'))).toBe(true);
    expect(files.some((f) => f.file.startsWith('tests/'))).toBe(true);
    expect(files.some((f) => f.file.startsWith('bench/'))).toBe(true);
  });

  it(`keeps every file under ${MAX_LINES} lines, apart from the known offenders, which may only shrink`, () => {
    const problems: string[] = [];
    for (const { file, lines } of files) {
      if (lines < MAX_LINES) continue;
      const suffix = Object.keys(KNOWN_OFFENDERS).find((entry) => matches(file, entry));
      if (suffix === undefined) problems.push(`${file}: ${lines} lines (split it under ${MAX_LINES})`);
      else if (lines > KNOWN_OFFENDERS[suffix])
        problems.push(`${file}: ${lines} lines, more than the ${KNOWN_OFFENDERS[suffix]} it is allowed (split it, do not grow it)`);
    }
    expect(problems).toEqual([]);
  });

  it('lists only files that are still over the limit', () => {
    const stale = Object.keys(KNOWN_OFFENDERS).filter(
      (suffix) => !files.some(({ file, lines }) => matches(file, suffix) && lines >= MAX_LINES),
    );
    // A file split under the limit (or renamed) leaves its entry behind: remove it (or follow the rename).
    expect(stale).toEqual([]);
  });

  it('counts lines as an editor does', () => {
    expect([countLines(''), countLines('a'), countLines('a\n'), countLines('a\nb'), countLines('a\nb\n'), countLines('\n')]).toEqual([
      0, 1, 1, 2, 2, 1,
    ]);
  });
});
