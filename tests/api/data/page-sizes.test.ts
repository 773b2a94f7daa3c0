/**
 * The data functions take their default page size from the shared constants (PAGE_SIZE, CHAT_PAGE_SIZE
 * for chat messages), so a change of the page size reaches every listing: no default limit in
 * api/data is the constant's value written out.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CHAT_PAGE_SIZE, PAGE_SIZE } from '@shared/constants.ts';

const DATA = fileURLToPath(new URL('../../../api/data', import.meta.url));
/** `limit = 50`, `limit ?? 50`, `options.limit ?? 50`, and the same with any literal. */
const DEFAULT_LIMIT = /\blimit\s*(?:=(?!=)|\?\?)\s*([\d_]+)\b/g;

function literalPageSizes(): string[] {
  const found: string[] = [];
  for (const name of fs.readdirSync(DATA).filter((file) => file.endsWith('.ts'))) {
    const lines = fs.readFileSync(path.join(DATA, name), 'utf8').split('\n');
    lines.forEach((line, index) => {
      for (const match of line.matchAll(DEFAULT_LIMIT)) {
        const value = Number(match[1].replace(/_/g, ''));
        if (value === PAGE_SIZE || value === CHAT_PAGE_SIZE) found.push(`api/data/${name}:${index + 1}: ${line.trim()}`);
      }
    });
  }
  return found;
}

describe('default page sizes of the data functions', () => {
  it('are the constants, never their value written out', () => {
    expect(literalPageSizes()).toEqual([]);
  });

  it('would be found written out', () => {
    expect([...'export function listX(db: Db, offset = 0, limit = 50) {'.matchAll(DEFAULT_LIMIT)].map((m) => m[1])).toEqual(['50']);
    expect([...'const limit = options.limit ?? 150;'.matchAll(DEFAULT_LIMIT)].map((m) => m[1])).toEqual(['150']);
    expect([...'limit: options.limit ?? PAGE_SIZE'.matchAll(DEFAULT_LIMIT)]).toEqual([]);
  });
});
