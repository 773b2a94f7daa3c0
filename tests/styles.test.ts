/**
 * The stylesheets' layout: src/styles/global.css only imports the feature files, in cascade order, and
 * every stylesheet under src/styles is loaded exactly once (by global.css or by the one component that
 * imports it, like post.css), so no file is forgotten or loaded twice.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { IMPORT_LINE, STYLES_DIR, siteStylesheet } from './helpers/stylesheet.ts';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));
const entry = fs.readFileSync(path.join(STYLES_DIR, 'global.css'), 'utf8');
const imported = [...entry.matchAll(IMPORT_LINE)].map((match) => match[1]);
const stylesheets = fs.readdirSync(STYLES_DIR).filter((name) => name.endsWith('.css'));

/** `import '../styles/name.css'` or `import '@site/styles/name.css'` in the components, layouts and pages. */
function importedBySources(): string[] {
  const names: string[] = [];
  for (const relative of fs.readdirSync(SRC, { recursive: true, encoding: 'utf8' })) {
    if (!/\.(astro|tsx?)$/.test(relative)) continue;
    for (const match of fs
      .readFileSync(path.join(SRC, relative), 'utf8')
      .matchAll(/^import ['"](?:[./]*|@site\/)styles\/([\w-]+\.css)['"];?$/gm))
      names.push(match[1]);
  }
  return names;
}

describe('stylesheets', () => {
  it('global.css holds nothing but comments and imports of the feature files', () => {
    const rest = entry
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(IMPORT_LINE, '')
      .trim();
    expect(rest).toBe('');
    expect(imported.length).toBeGreaterThan(10);
  });

  it('loads every stylesheet exactly once', () => {
    const loaded = [...imported, ...importedBySources()].sort();
    expect(loaded).toEqual([...stylesheets].sort());
    expect(importedBySources()).toEqual(expect.arrayContaining(['global.css', 'post.css']));
  });

  it('feature files import nothing themselves, so the order in global.css is the whole cascade order', () => {
    for (const name of imported) expect(fs.readFileSync(path.join(STYLES_DIR, name), 'utf8'), name).not.toMatch(/@import/);
  });

  it('inlines the feature files in order for tests that need the whole stylesheet', () => {
    const css = siteStylesheet();
    expect(css).not.toMatch(/@import/);
    const starts = imported.map((name) => css.indexOf(fs.readFileSync(path.join(STYLES_DIR, name), 'utf8')));
    expect(starts.every((start) => start >= 0)).toBe(true);
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
  });
});
