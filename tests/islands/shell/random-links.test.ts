/** The shell's random links: its copies of the paths and URLs agree with the builders; hidden picks are asked again. */
import { describe, expect, it } from 'vitest';
import { apiPaths, apiUrl } from '@shared/api-paths.ts';
import { HIDING_STORAGE_KEYS, STORAGE_KEYS } from '@shared/constants.ts';
import { creatorKey } from '@shared/hiding.ts';
import { creatorUrl, postUrl } from '@shared/urls.ts';
import { memoryStorage } from '@site/client/stores/session.ts';
import { RANDOM_PICK_PATHS, RANDOM_TRIES, guestHiddenCreators, pickUrl, visiblePickUrl } from '@site/islands/shell/random-links.ts';

describe('random links', () => {
  it("agree with the API's paths and the site's URLs", () => {
    expect(RANDOM_PICK_PATHS['/posts/random']).toBe(apiUrl(apiPaths.randomPost()));
    expect(RANDOM_PICK_PATHS['/artists/random']).toBe(apiUrl(apiPaths.randomCreator()));
    expect(pickUrl({ service: 'fanbox', artist_id: 'a b/1' })).toBe(creatorUrl('fanbox', 'a b/1'));
    expect(pickUrl({ service: 'fanbox', artist_id: '9', post_id: 'x?y' })).toBe(postUrl('fanbox', '9', 'x?y'));
  });

  it("reads a guest's hidden creators, and none for an account or a broken list", () => {
    const list = JSON.stringify({ creators: [creatorKey('patreon', '1')], tags: ['art'] });
    expect(guestHiddenCreators(memoryStorage({ [HIDING_STORAGE_KEYS.guest]: list }))).toEqual(['patreon:1']);
    expect(guestHiddenCreators(memoryStorage({ [HIDING_STORAGE_KEYS.guest]: list, [STORAGE_KEYS.loggedIn]: 'yes' }))).toEqual([]);
    expect(guestHiddenCreators(memoryStorage({ [HIDING_STORAGE_KEYS.guest]: '{oops' }))).toEqual([]);
    expect(guestHiddenCreators(memoryStorage({ [HIDING_STORAGE_KEYS.guest]: '{"creators":"patreon:1"}' }))).toEqual([]);
  });

  it('asks again while the pick is by a hidden creator, at most RANDOM_TRIES times', async () => {
    const picks = [
      { service: 'patreon', artist_id: '1', post_id: 'a' },
      { service: 'patreon', artist_id: '1', post_id: 'b' },
      { service: 'fanbox', artist_id: '2', post_id: 'c' },
    ];
    let asked = 0;
    const url = await visiblePickUrl(async () => picks[asked++] ?? null, ['patreon:1']);
    expect(url).toBe(postUrl('fanbox', '2', 'c'));
    expect(asked).toBe(3);

    asked = 0;
    const always = await visiblePickUrl(async () => ({ service: 'patreon', artist_id: '1', post_id: String(++asked) }), ['patreon:1']);
    expect(asked).toBe(RANDOM_TRIES);
    expect(always).toBe(postUrl('patreon', '1', String(RANDOM_TRIES)));

    expect(await visiblePickUrl(async () => null, ['patreon:1'])).toBeNull();
  });
});
