/**
 * The floors and their one-way arrows (README.md, "How it fits together"):
 *   shared/  rules, constants, shapes: imports only shared/ and npm packages, never node:*;
 *   api/     the server: imports only api/ and shared/;
 *   src/     the site: imports shared/ and src/; only src/loaders/** may import api/.
 * Every import specifier (static, `export ... from`, dynamic `import()`) of every .ts/.tsx/.astro/.mjs
 * file under the three folders is read, aliases (@shared, @api, @site) and relative paths resolved, and
 * an arrow the wrong way fails here. A specifier climbing two levels (`../../`) must be an alias.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '..');
const FLOORS = ['shared', 'api', 'src'] as const;
type Floor = (typeof FLOORS)[number];
const ALIASES: Record<string, Floor> = { '@shared/': 'shared', '@api/': 'api', '@site/': 'src' };
const EXTENSIONS = /\.(ts|tsx|astro|mjs)$/;

function* sourceFiles(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sourceFiles(full);
    else if (EXTENSIONS.test(entry.name)) yield full;
  }
}

/** Static imports, `export ... from`, side-effect imports, dynamic import() and import('...') types. */
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(['"])([^'"\n]+)\1/g;

function importSpecifiers(text: string): string[] {
  return [...text.matchAll(SPECIFIER)].map((match) => match[2]);
}

interface Arrow {
  file: string;
  specifier: string;
  /** The repository path it points to, or 'node:' / 'npm' for outside modules. */
  target: string;
}

function resolveSpecifier(file: string, specifier: string): string {
  if (specifier.startsWith('node:')) return 'node:';
  for (const [alias, floor] of Object.entries(ALIASES)) {
    if (specifier.startsWith(alias)) return path.posix.join(floor, specifier.slice(alias.length));
  }
  if (specifier.startsWith('.'))
    return path
      .relative(ROOT, path.resolve(path.dirname(file), specifier))
      .split(path.sep)
      .join('/');
  return 'npm';
}

function arrowsOf(file: string, text: string): Arrow[] {
  return importSpecifiers(text).map((specifier) => ({
    file: path.relative(ROOT, file).split(path.sep).join('/'),
    specifier,
    target: resolveSpecifier(file, specifier),
  }));
}

function floorOf(repoPath: string): Floor | undefined {
  return FLOORS.find((floor) => repoPath === floor || repoPath.startsWith(`${floor}/`));
}

/** Why an arrow is not allowed, or undefined when it is. */
function violation({ file, specifier, target }: Arrow): string | undefined {
  if (specifier.startsWith('../../')) return 'climbs ../../ (use @shared/, @api/ or @site/)';
  const from = floorOf(file);
  const to = floorOf(target);
  if (from === 'shared') {
    if (target === 'node:') return 'shared/ never imports node:*';
    if (to && to !== 'shared') return `shared/ imports only shared/ (this points into ${to}/)`;
  }
  if (from === 'api' && to === 'src') return 'api/ never imports src/';
  if (from === 'src' && to === 'api' && !file.startsWith('src/loaders/')) return 'only src/loaders/ imports api/';
  if (from && to === undefined && target !== 'npm' && target !== 'node:' && target !== 'package.json') {
    return `points outside the floors (${target})`;
  }
  return undefined;
}

function allArrows(): Arrow[] {
  const arrows: Arrow[] = [];
  for (const floor of FLOORS) {
    for (const file of sourceFiles(path.join(ROOT, floor))) arrows.push(...arrowsOf(file, fs.readFileSync(file, 'utf8')));
  }
  return arrows;
}

describe('floors', () => {
  const arrows = allArrows();

  it('reads the imports of every floor', () => {
    for (const floor of FLOORS)
      expect(
        arrows.some((arrow) => arrow.file.startsWith(`${floor}/`)),
        floor,
      ).toBe(true);
    expect(arrows.length).toBeGreaterThan(1000);
  });

  it('has no arrow going the wrong way', () => {
    const wrong = arrows.flatMap((arrow) => {
      const why = violation(arrow);
      return why ? [`${arrow.file}: '${arrow.specifier}': ${why}`] : [];
    });
    expect(wrong).toEqual([]);
  });

  it('resolves every alias and relative import to a file that exists', () => {
    const missing = arrows
      .filter(({ target }) => target !== 'npm' && target !== 'node:')
      .filter(
        ({ target }) =>
          !['', '.ts', '.tsx', '.astro', '.mjs', '.json', '/index.ts'].some((ext) => fs.existsSync(path.join(ROOT, target + ext))),
      )
      .map(({ file, specifier }) => `${file}: '${specifier}'`);
    expect(missing).toEqual([]);
  });
});

describe('the checker', () => {
  const check = (file: string, specifier: string) => violation(arrowsOf(path.join(ROOT, file), `import x from '${specifier}';`)[0]);

  it('finds each kind of wrong arrow', () => {
    expect(check('api/app.ts', '@site/loaders/post.ts')).toMatch(/api\/ never imports src/);
    expect(check('api/app.ts', '../src/loaders/post.ts')).toMatch(/api\/ never imports src/);
    expect(check('shared/urls.ts', 'node:path')).toMatch(/never imports node/);
    expect(check('shared/urls.ts', '@api/config.ts')).toMatch(/shared\/ imports only shared/);
    expect(check('shared/chat/embed.ts', '../../src/client/api-client.ts')).toMatch(/climbs/);
    expect(check('src/components/Footer.astro', '@api/build-info.ts')).toMatch(/only src\/loaders/);
    expect(check('src/pages/index.astro', '../../api/config.ts')).toMatch(/climbs/);
  });

  it('lets the right arrows through', () => {
    expect(check('src/loaders/post.ts', '@api/data/posts.ts')).toBeUndefined();
    expect(check('src/islands/files/HashSearch.tsx', '@shared/hash-search.ts')).toBeUndefined();
    expect(check('api/data/posts.ts', '@shared/shapes/posts.ts')).toBeUndefined();
    expect(check('shared/chat/embed.ts', '../urls.ts')).toBeUndefined();
    expect(check('api/server/front.ts', 'node:http')).toBeUndefined();
  });

  it('reads static, re-export, side-effect and dynamic imports', () => {
    const text = [
      "import a from './a.ts';",
      "import type { B } from '@api/b.ts';",
      "export { c } from '../c.ts';",
      "import './d.css';",
      "const e = await import('@shared/e.ts');",
      "type F = import('./f.ts').F;",
    ].join('\n');
    expect(importSpecifiers(text)).toEqual(['./a.ts', '@api/b.ts', '../c.ts', './d.css', '@shared/e.ts', './f.ts']);
  });
});
