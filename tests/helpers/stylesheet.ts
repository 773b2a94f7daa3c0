/**
 * The site's stylesheet as one text, for tests that put it in a page of their own: src/styles/global.css
 * with each `@import './file.css';` line replaced by that file, in order, as the build bundles it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const STYLES_DIR = fileURLToPath(new URL('../../src/styles/', import.meta.url));

/** `@import './name.css';` on a line of its own: the only form of import the stylesheets use. */
export const IMPORT_LINE = /^@import '\.\/([\w-]+\.css)';$/gm;

export function siteStylesheet(file = path.join(STYLES_DIR, 'global.css')): string {
  return fs.readFileSync(file, 'utf8').replace(IMPORT_LINE, (_, name: string) => siteStylesheet(path.join(path.dirname(file), name)));
}
