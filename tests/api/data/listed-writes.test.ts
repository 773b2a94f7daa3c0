/**
 * The writers' own guard against the do-not-post list (upsertCreator, upsertPost refuse listed content
 * whatever the caller forgot) and upsertPost clearing a written post's flags.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { addDoNotPost } from '@api/data/do-not-post.ts';
import { getCreator, upsertCreator } from '@api/data/creators.ts';
import { flagPost, isPostFlagged } from '@api/data/flags.ts';
import { getPost, upsertPost } from '@api/data/posts.ts';
import { tempDb, type TempDb } from './helpers.ts';

let t: TempDb;
beforeEach(async () => {
  t = tempDb();
  await upsertCreator(t.db, { service: 'patreon', id: '1', name: 'Kept' });
});
afterEach(() => t.cleanup());

const post = (id: string, user = '1') => ({ service: 'patreon', user, id, title: `Post ${id}`, published: '2024-01-01T00:00:00' });
const changes = () => (t.db.prepare('SELECT count(*) AS n FROM changes').get() as { n: number }).n;

describe('writers and the do-not-post list', () => {
  it('upsertCreator writes nothing for a listed creator and says unchanged', async () => {
    await addDoNotPost(t.db, { service: 'patreon', creator_id: '2', reason: 'Owner request' });
    const before = changes();
    expect(await upsertCreator(t.db, { service: 'patreon', id: '2', name: 'Removed' })).toBe('unchanged');
    expect(await getCreator(t.db, 'patreon', '2')).toBeUndefined();
    expect(changes()).toBe(before);
    // A listed post does not list its creator.
    await addDoNotPost(t.db, { service: 'patreon', creator_id: '3', post_id: '9', reason: 'Owner request' });
    expect(await upsertCreator(t.db, { service: 'patreon', id: '3', name: 'Other' })).toBe('inserted');
  });

  it('upsertPost writes nothing for a listed post or a post of a listed creator', async () => {
    await addDoNotPost(t.db, { service: 'patreon', creator_id: '1', post_id: '10', reason: 'Owner request' });
    expect(await upsertPost(t.db, post('10'))).toEqual({ action: 'unchanged', listed: true });
    expect(await getPost(t.db, 'patreon', '1', '10')).toBeUndefined();
    expect((await upsertPost(t.db, post('11'))).action).toBe('inserted');
    await addDoNotPost(t.db, { service: 'patreon', creator_id: '1', reason: 'Owner request' });
    expect(await upsertPost(t.db, { ...post('11'), title: 'Changed' })).toEqual({ action: 'unchanged', listed: true });
    expect((await getPost(t.db, 'patreon', '1', '11'))?.title).toBe('Post 11');
  });

  it("upsertPost clears a post's flags when it writes it again, changed or not", async () => {
    await upsertPost(t.db, post('20'));
    await upsertPost(t.db, post('21'));
    await flagPost(t.db, { service: 'patreon', user: '1', post_id: '20', account_id: null, reason: 'a' });
    await flagPost(t.db, { service: 'patreon', user: '1', post_id: '20', account_id: null, reason: 'b' });
    await flagPost(t.db, { service: 'patreon', user: '1', post_id: '21', account_id: null, reason: 'a' });
    expect(await upsertPost(t.db, post('20'))).toEqual({ action: 'unchanged', flags_cleared: 2 });
    expect(await isPostFlagged(t.db, 'patreon', '1', '20')).toBe(false);
    expect(await upsertPost(t.db, { ...post('21'), title: 'New title' })).toMatchObject({ action: 'updated', flags_cleared: 1 });
    expect(await upsertPost(t.db, post('20'))).toEqual({ action: 'unchanged' });
  });
});
