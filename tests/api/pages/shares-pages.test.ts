/**
 * Share pages in the page store: their canonical keys, and which stored pages a share change affects.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { affectedByChanges } from '@api/pages/affected.ts';
import { allArchivePages } from '@api/pages/rebuild.ts';
import { canonicalPageKey, GLOBAL_LISTING_STORED_PAGES } from '@api/pages/keys.ts';
import { lastChangeId, readChangesSince } from '@api/data/changes.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { createShare, deleteShare } from '@api/data/shares.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

describe('share page keys', () => {
  it('keys the shares list by offset, keeping only its first pages', () => {
    expect(canonicalPageKey('/shares', '')).toBe('/shares');
    expect(canonicalPageKey('/shares', '?o=50')).toBe('/shares?o=50');
    const deepest = (GLOBAL_LISTING_STORED_PAGES - 1) * 50;
    expect(canonicalPageKey('/shares', `?o=${deepest}`)).toBe(`/shares?o=${deepest}`);
    expect(canonicalPageKey('/shares', `?o=${deepest + 50}`)).toBeUndefined();
    expect(canonicalPageKey('/shares', '?o=25')).toBeUndefined();
    expect(canonicalPageKey('/shares', '?q=x')).toBeUndefined();
  });

  it('keys share pages by numeric id only', () => {
    expect(canonicalPageKey('/share/12', '')).toBe('/share/12');
    expect(canonicalPageKey('/share/12', '?o=50')).toBeUndefined();
    for (const id of ['abc', '0', '012', '1.5', '1%2F2', '9'.repeat(16)]) expect(canonicalPageKey(`/share/${id}`, '')).toBeUndefined();
    expect(canonicalPageKey('/share', '')).toBeUndefined();
  });

  it("keys a creator's uploads tab by offset", () => {
    expect(canonicalPageKey('/fanbox/user/123/shares', '')).toBe('/fanbox/user/123/shares');
    expect(canonicalPageKey('/fanbox/user/123/shares', '?o=100')).toBe('/fanbox/user/123/shares?o=100');
    expect(canonicalPageKey('/myspace/user/123/shares', '')).toBeUndefined();
    expect(canonicalPageKey('/fanbox/user/123/shares', '?o=10')).toBeUndefined();
  });
});

describe('pages a share change affects', () => {
  let t: TempDb;
  beforeAll(async () => {
    t = tempDb();
    await upsertCreator(t.db, { service: 'fanbox', id: 'alpha', name: 'Alpha' });
    await upsertCreator(t.db, { service: 'fanbox', id: 'beta', name: 'Beta' });
  });
  afterAll(() => t.cleanup());

  it("renders the share, the shares list and its creator's pages (header count), not other creators'", async () => {
    const from = await lastChangeId(t.db);
    const id = await createShare(t.db, { name: 'Pack', files: [], creators: [{ service: 'fanbox', creator_id: 'alpha' }] });
    const affected = await affectedByChanges(t.db, await readChangesSince(t.db, from));
    for (const key of [`/share/${id}`, '/shares', '/fanbox/user/alpha/shares', '/fanbox/user/alpha', '/fanbox/user/alpha/tags']) {
      expect(affected.render, key).toContain(key);
    }
    expect([...affected.render].some((key) => key.includes('/beta'))).toBe(false);
    expect(affected.listings.get('/shares')).toBe(0);
    expect(affected.listings.get('/fanbox/user/alpha/shares')).toBe(0);
  });

  it('renders an unlinked share and the list; a deleted share page is rendered (to be removed)', async () => {
    const id = await createShare(t.db, { name: 'Loose', files: [] });
    const from = await lastChangeId(t.db);
    await deleteShare(t.db, id);
    const affected = await affectedByChanges(t.db, await readChangesSince(t.db, from));
    expect(affected.render).toContain(`/share/${id}`);
    expect(affected.render).toContain('/shares');
    expect([...affected.render].some((key) => key.startsWith('/fanbox/'))).toBe(false);
  });

  it("a full rebuild includes every share page, the list and each creator's uploads tab", async () => {
    const kept = await createShare(t.db, { name: 'Kept', files: [], creators: [{ service: 'fanbox', creator_id: 'beta' }] });
    const all = await allArchivePages(t.db);
    expect(all.render).toContain(`/share/${kept}`);
    expect(all.render).toContain('/shares');
    expect(all.render).toContain('/fanbox/user/beta/shares');
    expect(all.render).toContain('/fanbox/user/alpha/shares');
  });
});
