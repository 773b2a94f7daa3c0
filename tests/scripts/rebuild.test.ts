/**
 * scripts/rebuild against a real build, a real SQLite file and a real page store: after new posts are
 * imported, exactly the affected pages change and every other stored page keeps its bytes.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, migrate, type Db } from '@api/data/db.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { upsertPost, deletePost } from '@api/data/posts.ts';

let dataDir: string;
let db: Db;

function rebuild(...args: string[]): string {
  return execFileSync('npx', ['tsx', 'scripts/rebuild.ts', ...args], {
    env: { ...process.env, DATA_DIR: dataDir, TROVE_ENV: 'test' },
    encoding: 'utf8',
  });
}

/** Every stored page (relative path) with the hash of its bytes. */
function snapshot(): Map<string, string> {
  const root = path.join(dataDir, 'pages');
  const pages = new Map<string, string>();
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.html'))
        pages.set(path.relative(root, full), crypto.createHash('sha256').update(fs.readFileSync(full)).digest('hex'));
    }
  };
  walk(root);
  return pages;
}

function changedBetween(before: Map<string, string>, after: Map<string, string>): string[] {
  const changed = new Set<string>();
  for (const [file, hash] of after) if (before.get(file) !== hash) changed.add(file);
  for (const file of before.keys()) if (!after.has(file)) changed.add(file);
  return [...changed].sort();
}

const hour = (n: number) => new Date(Date.UTC(2024, 0, 1) + n * 3_600_000).toISOString().slice(0, 19);

async function addPost(creator: string, n: number, tags: string[] = ['sketch']) {
  await upsertPost(db, {
    service: 'fanbox',
    user: creator,
    id: `${creator}-${n}`,
    title: `Post ${n} of ${creator}`,
    content: `<p>Body ${n}</p>`,
    published: hour(n),
    tags,
  });
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-rebuild-'));
  db = openDatabase(path.join(dataDir, 'trove.sqlite'));
  migrate(db);
  for (const creator of ['alpha', 'beta']) {
    await upsertCreator(db, { service: 'fanbox', id: creator, name: `Creator ${creator}`, indexed: 1_700_000_000, updated: 1_700_000_000 });
    for (let n = 0; n < 60; n += 1) await addPost(creator, n);
  }
}, 300_000);

afterAll(() => {
  db?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('scripts/rebuild', () => {
  it('renders every archive page with --all and lists affected URLs with --dry-run', async () => {
    const output = rebuild('--all');
    expect(output).toMatch(/Rebuilt \d+ pages/);
    const pages = snapshot();
    // 120 post pages, 2 fanbox creators x (2 listing pages + tags, uploads, DMs, links, announcements,
    // fancards), /posts (3 pages), /artists/updated, /artists, /posts/tags, /shares, /dms, and the
    // latest popular page of each of the four periods.
    expect(pages.size).toBe(120 + 2 * 8 + 3 + 1 + 1 + 1 + 1 + 1 + 4);
    expect(pages.has('fanbox/user/alpha/post/alpha-59/index.html')).toBe(true);
    expect(pages.has('fanbox/user/alpha/index.o50.html')).toBe(true);

    await addPost('alpha', 100);
    const dry = rebuild('--dry-run');
    expect(dry).toContain('/fanbox/user/alpha/post/alpha-100');
    expect(dry).not.toContain('/fanbox/user/beta');
    expect(snapshot()).toEqual(pages);
  });

  it('changes exactly the affected pages after an import and keeps the bytes of the others', async () => {
    rebuild();
    const before = snapshot();
    const mtimeOfUntouched = fs.statSync(path.join(dataDir, 'pages/fanbox/user/beta/post/beta-10/index.html')).mtimeMs;

    await addPost('alpha', 101, ['sketch', 'colour']);
    await addPost('alpha', 102);
    rebuild();
    const after = snapshot();

    expect(changedBetween(before, after)).toEqual(
      [
        'fanbox/user/alpha/index.html',
        'fanbox/user/alpha/index.o50.html',
        'fanbox/user/alpha/post/alpha-100/index.html', // the old newest: its prev now points at 101
        'fanbox/user/alpha/post/alpha-101/index.html',
        'fanbox/user/alpha/post/alpha-102/index.html',
        'fanbox/user/alpha/tags/index.html',
        'posts/index.html',
        'posts/index.o50.html',
        'posts/index.o100.html',
        'posts/tags/index.html',
      ].sort(),
    );
    expect(fs.statSync(path.join(dataDir, 'pages/fanbox/user/beta/post/beta-10/index.html')).mtimeMs).toBe(mtimeOfUntouched);
    const page = fs.readFileSync(path.join(dataDir, 'pages/fanbox/user/alpha/post/alpha-101/index.html'), 'utf8');
    expect(page).toContain('Post 101 of alpha');
  });

  it('removes the pages of a deleted post and refreshes its neighbours', async () => {
    rebuild();
    const before = snapshot();
    await deletePost(db, 'fanbox', 'beta', 'beta-30');
    rebuild();
    const changed = changedBetween(before, snapshot());
    expect(changed).toContain('fanbox/user/beta/post/beta-30/index.html');
    expect(changed).toContain('fanbox/user/beta/post/beta-29/index.html');
    expect(changed).toContain('fanbox/user/beta/post/beta-31/index.html');
    expect(changed).not.toContain('fanbox/user/beta/post/beta-28/index.html');
    expect(fs.existsSync(path.join(dataDir, 'pages/fanbox/user/beta/post/beta-30/index.html'))).toBe(false);
  });
});
