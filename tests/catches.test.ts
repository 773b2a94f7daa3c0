/**
 * No source file has a bare `catch {}` that swallows every error: a catch binds the error and either narrows it (instanceof, an
 * errno code) or uses it (wraps it, logs it, ends an answer with it). Parsing that may fail uses
 * shared/parse.ts, files that may be missing api/server/fs-errors.ts, refused storage
 * src/client/storage-errors.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const FOLDERS = ['api', 'shared', 'src', 'scripts', 'bench'];
const SOURCE = /\.(ts|tsx|astro|mjs)$/;

function* sources(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* sources(full);
    else if (SOURCE.test(entry.name)) yield full;
  }
}

describe('catch blocks', () => {
  it('bind the error they catch', () => {
    const bare: string[] = [];
    for (const folder of FOLDERS) {
      for (const file of sources(path.join(ROOT, folder))) {
        fs.readFileSync(file, 'utf8')
          .split('\n')
          .forEach((line, index) => {
            // `catch {` drops the error unseen (a comment may name the construct).
            if (/\bcatch\s*\{/.test(line) && !/^\s*(\*|\/\/)/.test(line)) bare.push(`${path.relative(ROOT, file)}:${index + 1}`);
          });
      }
    }
    expect(bare).toEqual([]);
  });
});
