/**
 * The route table of tests/api/engine-parity.test.ts: which GET calls (and a few write-then-read pairs)
 * are made on both engines, with real ids of the demo archive read from the seeded SQLite file.
 * Each case names the declared route (as in tests/api/route-coverage.ts) that its path calls.
 */
import type { DemoCaller, DemoIds } from './engine-parity-archive.ts';

export type Caller = 'guest' | DemoCaller;

export interface ParityCase {
  /** The declared route, 'GET /api/v1/{service}/user/{id}/posts'. */
  route: string;
  /** The request target, '/api/v1/patreon/user/123/posts?o=50'. */
  path: string;
  as?: Caller;
  /** JSON body of an unsafe call. */
  body?: unknown;
  /** More request headers (conditional requests). */
  headers?: Record<string, string>;
  /** Also call the Link header's rel="next" target (taken from SQLite's answer) on both servers. */
  followNext?: boolean;
  /** Math.random() answers this during the call (the random routes draw from it). */
  random?: number;
  /** A field of the answer holding a secret made for this call (a feed token): '<token>' wherever it appears. */
  secret?: string;
}

const V1 = '/api/v1';
const get = (route: string, path: string, more: Partial<ParityCase> = {}): ParityCase => ({
  route: `GET ${route}`,
  path,
  ...more,
});

/** Read-only calls: every GET route with the demo's ids, pages, searches and errors. */
export function readCases(d: DemoIds): ParityCase[] {
  const creator = (c: { service: string; id: string }) => `${V1}/${c.service}/user/${encodeURIComponent(c.id)}`;
  const busiest = creator(d.busiest);
  const showcaseCreator = creator({ service: d.showcase.service, id: d.showcase.user });
  const showcase = `${showcaseCreator}/post/${d.showcase.id}`;
  const flagged = `${creator({ service: d.flagged.service, id: d.flagged.user })}/post/${d.flagged.id}`;
  const word = encodeURIComponent(d.word);
  const tag = encodeURIComponent(d.tag);
  const R = {
    posts: `${V1}/{service}/user/{id}/posts`,
    legacy: `${V1}/{service}/user/{id}/posts-legacy`,
    profile: `${V1}/{service}/user/{id}/profile`,
    post: `${V1}/{service}/user/{id}/post/{post}`,
  };
  return [
    get('/api/v1/app_version', `${V1}/app_version`),
    get('/api/schema', '/api/schema'),
    get(`${V1}/creators.txt`, `${V1}/creators.txt`),
    get(`${V1}/creators`, `${V1}/creators`),
    get(R.profile, `${busiest}/profile`),
    get(R.profile, `${creator(d.linked)}/profile`),
    get(R.profile, `${creator({ service: 'patreon', id: 'no-such-creator' })}/profile`),
    get(R.profile, `${busiest}/profile`, { headers: { 'If-Modified-Since': 'Tue, 01 Jan 2030 00:00:00 GMT' } }),
    get(R.posts, `${busiest}/posts`, { headers: { 'If-Modified-Since': 'Mon, 01 Jan 2024 00:00:00 GMT' } }),
    get(R.post, showcase, { headers: { 'If-Modified-Since': 'Tue, 01 Jan 2030 00:00:00 GMT' } }),
    get(`${V1}/{service}/user/{id}/recommended`, `${creator(d.similar)}/recommended`),
    get(`${V1}/{service}/user/{id}/recommended`, `${busiest}/recommended`),
    get(`${V1}/artists/random`, `${V1}/artists/random`, { random: 0.1 }),
    get(`${V1}/artists/random`, `${V1}/artists/random`, { random: 0.77 }),
    get(`${V1}/{service}/user/{id}/links`, `${creator(d.linked)}/links`),
    get(`${V1}/{service}/user/{id}/links`, `${busiest}/links`),
    get(`${V1}/{service}/user/{id}/announcements`, `${creator(d.announced)}/announcements`),
    get(`${V1}/{service}/user/{id}/fancards`, `${creator({ service: 'fanbox', id: d.fanbox })}/fancards`),
    get(`${V1}/{service}/user/{id}/tags`, `${busiest}/tags`),
    get(`${V1}/{service}/user/{id}/tags`, `${showcaseCreator}/tags`),
    // Shares.
    get(`${V1}/shares`, `${V1}/shares`),
    get(`${V1}/shares`, `${V1}/shares?o=50`),
    get(`${V1}/share/{id}`, `${V1}/share/${d.share}`),
    get(`${V1}/share/{id}`, `${V1}/share/999999`),
    get(`${V1}/{service}/user/{id}/shares`, `${creator(d.sharer)}/shares`),
    get(`${V1}/shares/upload`, `${V1}/shares/upload`, { as: 'consumer' }),
    get(`${V1}/account/posts/upload`, `${V1}/account/posts/upload?service=${d.busiest.service}&user=${encodeURIComponent(d.busiest.id)}`, {
      as: 'consumer',
    }),
    // A creator's posts: pages, cursors, searches, tags.
    get(R.posts, `${busiest}/posts`, { followNext: true }),
    get(R.posts, `${busiest}/posts?o=50`),
    get(R.posts, `${busiest}/posts?o=100000`),
    get(R.posts, `${busiest}/posts?q=${word}`),
    get(R.posts, `${busiest}/posts?q=th`),
    get(R.posts, `${showcaseCreator}/posts?tag=${tag}`),
    get(R.posts, `${showcaseCreator}/posts?tag=dragons&tag=fantasy`),
    get(R.legacy, `${busiest}/posts-legacy`),
    get(R.legacy, `${busiest}/posts-legacy?o=50&q=th`),
    get(R.legacy, `${showcaseCreator}/posts-legacy?tag=dragons`),
    // One post.
    get(R.post, showcase),
    get(R.post, flagged),
    get(R.post, `${showcaseCreator}/post/0`),
    get(`${V1}/{service}/user/{id}/post/{post}/revisions`, `${showcase}/revisions`),
    get(`${V1}/{service}/user/{id}/post/{post}/revision/{revision}`, `${showcase}/revision/${d.revision}`),
    get(`${V1}/{service}/user/{id}/post/{post}/revision/{revision}`, `${showcase}/revision/999999999`),
    get(`${V1}/{service}/user/{id}/post/{post}/comments`, `${showcase}/comments`),
    get(`${V1}/{service}/post/{post}`, `${V1}/${d.showcase.service}/post/${d.showcase.id}`),
    get(`${V1}/{service}/user/{id}/post/{post}/flag`, `${flagged}/flag`),
    get(`${V1}/{service}/user/{id}/post/{post}/flag`, `${showcase}/flag`),
    // Recent posts, search, tags, popular, random.
    get(`${V1}/posts`, `${V1}/posts`, { followNext: true }),
    get(`${V1}/posts`, `${V1}/posts?o=50`),
    get(`${V1}/posts`, `${V1}/posts?o=750`),
    get(`${V1}/posts`, `${V1}/posts?q=${word}`),
    get(`${V1}/posts`, `${V1}/posts?q=th`, { followNext: true }),
    get(`${V1}/posts`, `${V1}/posts?q=th&o=50`),
    get(`${V1}/posts`, `${V1}/posts?q=%E5%A4%9C%E5%B8%82`),
    get(`${V1}/posts`, `${V1}/posts?q=%E9%BB%92%E7%8C%AB%E3%81%AE`),
    get(`${V1}/posts`, `${V1}/posts?tag=${tag}`, { followNext: true }),
    get(`${V1}/posts`, `${V1}/posts?tag=${tag}&q=th`),
    get(`${V1}/posts`, `${V1}/posts?q=zzqqzz`),
    get(`${V1}/posts/popular`, `${V1}/posts/popular`),
    get(`${V1}/posts/popular`, `${V1}/posts/popular?period=recent`),
    get(`${V1}/posts/popular`, `${V1}/posts/popular?date=${d.popularDay}&period=day`),
    get(`${V1}/posts/popular`, `${V1}/posts/popular?date=${d.popularDay}&period=week`),
    get(`${V1}/posts/popular`, `${V1}/posts/popular?date=${d.popularDay}&period=month&o=50`),
    get(`${V1}/posts/random`, `${V1}/posts/random`, { random: 0.25 }),
    get(`${V1}/posts/random`, `${V1}/posts/random`, { random: 0.9 }),
    get(`${V1}/posts/tags`, `${V1}/posts/tags`),
    // DMs.
    get(`${V1}/{service}/user/{id}/dms`, `${creator(d.dmCreator)}/dms`),
    get(`${V1}/dms`, `${V1}/dms`),
    get(`${V1}/dms`, `${V1}/dms?q=support&o=0`),
    get(`${V1}/has_pending_dms`, `${V1}/has_pending_dms`, { as: 'consumer' }),
    get(`${V1}/account/review_dms`, `${V1}/account/review_dms`, { as: 'consumer' }),
    get(`${V1}/account/review_dms`, `${V1}/account/review_dms?status=ignored`, { as: 'consumer' }),
    // Files.
    get(`${V1}/search_hash/{hash}`, `${V1}/search_hash/${d.image}`),
    get(`${V1}/search_hash/{hash}`, `${V1}/search_hash/${d.zip}`),
    get(`${V1}/search_hash/{hash}`, `${V1}/search_hash/${'0'.repeat(64)}`),
    get(`${V1}/file/{hash}`, `${V1}/file/${d.lockedKnown}`),
    get(`${V1}/file/{hash}`, `${V1}/file/${d.lockedUnknown}`),
    get('/api/v2/file/{hash}', `/api/v2/file/${d.zip}`),
    get('/api/v2/file/{hash}', `/api/v2/file/${'0'.repeat(64)}`),
    get(`${V1}/file`, `${V1}/file`),
    get('/api/v2/file', '/api/v2/file'),
    // Discord and Patreon community chats.
    get(`${V1}/discord/server/{id}`, `${V1}/discord/server/${d.discordServer}`),
    get(`${V1}/discord/channel/lookup/{server}`, `${V1}/discord/channel/lookup/${d.discordServer}`),
    get(`${V1}/discord/channel/{id}`, `${V1}/discord/channel/${d.discordChannel}`),
    get(`${V1}/discord/channel/{id}`, `${V1}/discord/channel/${d.discordChannel}?o=150`),
    get(`${V1}/patreon/user/{id}/community`, `${V1}/patreon/user/${d.community.creator}/community`),
    get(`${V1}/patreon/user/{channel}/community/messages`, `${V1}/patreon/user/${d.community.channel}/community/messages`),
    get(`${V1}/patreon/user/{channel}/community/messages`, `${V1}/patreon/user/${d.community.channel}/community/messages?o=150`),
    // The signed-in consumer's account.
    get(`${V1}/account`, `${V1}/account`, { as: 'consumer' }),
    get(`${V1}/account/notifications`, `${V1}/account/notifications`, { as: 'consumer' }),
    get(`${V1}/account/favorites`, `${V1}/account/favorites`, { as: 'consumer' }),
    get(`${V1}/account/favorites`, `${V1}/account/favorites?type=post`, { as: 'consumer' }),
    get(`${V1}/account/favorites/export`, `${V1}/account/favorites/export`, { as: 'consumer' }),
    get(`${V1}/account/favorites/export`, `${V1}/account/favorites/export?format=csv`, { as: 'consumer' }),
    get(`${V1}/account/favorites/new`, `${V1}/account/favorites/new?since=2024-01-01`, { as: 'consumer' }),
    get(`${V1}/account/favorites/new/count`, `${V1}/account/favorites/new/count?since=2024-06-01`, { as: 'consumer' }),
    get(`${V1}/account/keys`, `${V1}/account/keys`, { as: 'consumer' }),
    get(`${V1}/account/hidden`, `${V1}/account/hidden`, { as: 'consumer' }),
    get(`${V1}/{service}/user/{id}/links/new`, `${busiest}/links/new`, { as: 'consumer' }),
    get(`${V1}/imports/{id}`, `${V1}/imports/${d.importId}`),
    get(`${V1}/importer/logs/{id}`, `${V1}/importer/logs/${d.importId}`),
    // Moderators and administrators.
    get(`${V1}/account/moderator/flags`, `${V1}/account/moderator/flags`, { as: 'moderator' }),
    get(`${V1}/account/moderator/tasks/creator_links`, `${V1}/account/moderator/tasks/creator_links`, { as: 'moderator' }),
    get('/api/v2/account/moderator/tasks/creator_links', '/api/v2/account/moderator/tasks/creator_links', { as: 'moderator' }),
    get(`${V1}/account/administrator/accounts`, `${V1}/account/administrator/accounts`, { as: 'admin' }),
    get(`${V1}/account/administrator/accounts`, `${V1}/account/administrator/accounts?role=consumer`, { as: 'admin' }),
    get(`${V1}/account/administrator/accounts/{page}`, `${V1}/account/administrator/accounts/1`, { as: 'admin' }),
    get(`${V1}/account/administrator/accounts/{page}`, `${V1}/account/administrator/accounts/1?name=KI`, { as: 'admin' }),
    get(`${V1}/account/administrator/account/{id}`, `${V1}/account/administrator/account/${d.consumerId}`, { as: 'admin' }),
    get('/api/v2/account/administrator/accounts', '/api/v2/account/administrator/accounts?role=moderator', { as: 'admin' }),
    get('/api/v2/account/administrator/accounts/{page}', '/api/v2/account/administrator/accounts/1', { as: 'admin' }),
    get('/api/v2/account/administrator/account/{id}', `/api/v2/account/administrator/account/${d.consumerId}`, { as: 'admin' }),
    get(`${V1}/admin/imports`, `${V1}/admin/imports`, { as: 'admin' }),
    get(`${V1}/admin/imports`, `${V1}/admin/imports?state=finished&service=${d.dmCreator.service}`, { as: 'admin' }),
    get(`${V1}/admin/do_not_post`, `${V1}/admin/do_not_post`, { as: 'admin' }),
    get(`${V1}/admin/auto_import`, `${V1}/admin/auto_import`, { as: 'admin' }),
    get(`${V1}/admin/audit`, `${V1}/admin/audit`, { as: 'admin' }),
  ];
}

/**
 * Wider sweeps: every creator's tabs, every page of the recent posts, a sample of the posts with their
 * comments and revisions, every chat channel's first page.
 */
export function sweepCases(d: DemoIds): ParityCase[] {
  const cases: ParityCase[] = [];
  for (const c of d.all.creators) {
    const base = `${V1}/${c.service}/user/${encodeURIComponent(c.id)}`;
    for (const tab of ['profile', 'posts', 'tags', 'links', 'announcements', 'dms', 'shares', 'recommended'])
      cases.push(get(`${V1}/{service}/user/{id}/${tab}`, `${base}/${tab}`));
    if (c.service === 'fanbox') cases.push(get(`${V1}/{service}/user/{id}/fancards`, `${base}/fancards`));
  }
  for (let o = 0; o < d.all.postCount; o += 50) cases.push(get(`${V1}/posts`, `${V1}/posts?o=${o}`));
  for (const p of d.all.posts) {
    const post = `${V1}/${p.service}/user/${encodeURIComponent(p.user)}/post/${encodeURIComponent(p.id)}`;
    cases.push(get(`${V1}/{service}/user/{id}/post/{post}`, post));
    cases.push(get(`${V1}/{service}/user/{id}/post/{post}/comments`, `${post}/comments`));
    cases.push(get(`${V1}/{service}/user/{id}/post/{post}/revisions`, `${post}/revisions`));
  }
  for (const id of d.all.discordChannels) cases.push(get(`${V1}/discord/channel/{id}`, `${V1}/discord/channel/${id}`));
  for (const id of d.all.communityChannels)
    cases.push(get(`${V1}/patreon/user/{channel}/community/messages`, `${V1}/patreon/user/${id}/community/messages`));
  return cases;
}

const write = (method: string, route: string, path: string, more: Partial<ParityCase> = {}): ParityCase => ({
  route: `${method} ${route}`,
  path,
  ...more,
});

/** Writes, each followed by the reads that show it: run in order after the read cases. */
export function writeThenReadCases(d: DemoIds): ParityCase[] {
  const busiest = `${d.busiest.service}/${encodeURIComponent(d.busiest.id)}`;
  const post = `${d.showcase.service}/${d.showcase.user}/${d.showcase.id}`;
  const showcase = `${V1}/${d.showcase.service}/user/${d.showcase.user}/post/${d.showcase.id}`;
  const consumer = { as: 'consumer' } as const;
  return [
    write('POST', `${V1}/favorites/creator/{service}/{id}`, `${V1}/favorites/creator/${busiest}`, consumer),
    write('POST', `${V1}/favorites/post/{service}/{user}/{id}`, `${V1}/favorites/post/${post}`, consumer),
    get(`${V1}/account/favorites`, `${V1}/account/favorites`, consumer),
    get(`${V1}/account/favorites`, `${V1}/account/favorites?type=post`, consumer),
    get(`${V1}/account/favorites/new`, `${V1}/account/favorites/new?since=2024-01-01&o=50`, consumer),
    write('DELETE', `${V1}/favorites/creator/{service}/{id}`, `${V1}/favorites/creator/${busiest}`, consumer),
    get(`${V1}/account/favorites`, `${V1}/account/favorites`, consumer),
    write('DELETE', `${V1}/favorites/post/{service}/{user}/{id}`, `${V1}/favorites/post/${post}`, consumer),
    get(`${V1}/account/favorites`, `${V1}/account/favorites?type=post`, consumer),
    write('POST', `${V1}/account/hidden/tag/{tag}`, `${V1}/account/hidden/tag/${encodeURIComponent(d.tag)}`, consumer),
    write('POST', `${V1}/account/hidden/creator/{service}/{id}`, `${V1}/account/hidden/creator/${busiest}`, consumer),
    get(`${V1}/account/hidden`, `${V1}/account/hidden`, consumer),
    get(`${V1}/posts`, `${V1}/posts`, consumer),
    get(`${V1}/posts/tags`, `${V1}/posts/tags`, consumer),
    get(`${V1}/posts/popular`, `${V1}/posts/popular?period=recent`, consumer),
    get(`${V1}/creators`, `${V1}/creators`, consumer),
    get(`${V1}/posts/random`, `${V1}/posts/random`, { ...consumer, random: 0.5 }),
    get(`${V1}/artists/random`, `${V1}/artists/random`, { ...consumer, random: 0.5 }),
    write('POST', `${V1}/{service}/user/{id}/post/{post}/flag`, `${showcase}/flag`, { ...consumer, body: { reason: 'reason-other' } }),
    get(`${V1}/{service}/user/{id}/post/{post}/flag`, `${showcase}/flag`),
    get(`${V1}/account/moderator/flags`, `${V1}/account/moderator/flags`, { as: 'moderator' }),
    // A DM approved: the public DM lists have it, the review list has not.
    write('POST', `${V1}/account/review_dms`, `${V1}/account/review_dms`, { ...consumer, body: { approved_hashes: [d.pendingDm] } }),
    get(`${V1}/dms`, `${V1}/dms`),
    get(`${V1}/has_pending_dms`, `${V1}/has_pending_dms`, consumer),
    get(`${V1}/account/review_dms`, `${V1}/account/review_dms?status=ignored`, consumer),
    // A link request, approved by a moderator: both creators list each other.
    write('POST', `${V1}/{service}/user/{id}/links/new`, `${V1}/${d.busiest.service}/user/${encodeURIComponent(d.busiest.id)}/links/new`, {
      ...consumer,
      body: { service: d.unlinked.service, artist_id: d.unlinked.id, reason: 'Same artist on both.' },
    }),
    get(`${V1}/account/moderator/tasks/creator_links`, `${V1}/account/moderator/tasks/creator_links`, { as: 'moderator' }),
    write(
      'POST',
      `${V1}/account/moderator/creator_link_requests/{id}/approve`,
      `${V1}/account/moderator/creator_link_requests/${d.nextLinkRequest}/approve`,
      { as: 'moderator' },
    ),
    get(`${V1}/{service}/user/{id}/links`, `${V1}/${d.busiest.service}/user/${encodeURIComponent(d.busiest.id)}/links`),
    get(`${V1}/{service}/user/{id}/profile`, `${V1}/${d.unlinked.service}/user/${encodeURIComponent(d.unlinked.id)}/profile`),
    // A role change: the account, the list by role, the audit log.
    write('PATCH', `${V1}/account/administrator/account/{id}`, `${V1}/account/administrator/account/${d.otherConsumerId}`, {
      as: 'admin',
      body: { role: 'moderator' },
    }),
    get(`${V1}/account/administrator/account/{id}`, `${V1}/account/administrator/account/${d.otherConsumerId}`, { as: 'admin' }),
    get(`${V1}/account/administrator/accounts/{page}`, `${V1}/account/administrator/accounts/1?role=moderator`, { as: 'admin' }),
    get(`${V1}/admin/audit`, `${V1}/admin/audit`, { as: 'admin' }),
    // A new account with guest favourites.
    write('POST', `${V1}/authentication/register`, `${V1}/authentication/register`, {
      body: {
        username: 'parity_user',
        password: 'parity-password-1',
        confirm_password: 'parity-password-1',
        favorites_json: JSON.stringify([{ service: d.busiest.service, id: d.busiest.id }]),
      },
    }),
    get(`${V1}/account/administrator/accounts/{page}`, `${V1}/account/administrator/accounts/1`, { as: 'admin' }),
    // Favourites from a file (kemono's answer shape), then un-hidden.
    write('POST', `${V1}/account/favorites/import`, `${V1}/account/favorites/import`, {
      ...consumer,
      body: { text: JSON.stringify([...d.all.creators.slice(0, 4), { service: 'patreon', id: 'not-archived' }]) },
    }),
    get(`${V1}/account/favorites`, `${V1}/account/favorites`, consumer),
    write('DELETE', `${V1}/account/hidden/tag/{tag}`, `${V1}/account/hidden/tag/${encodeURIComponent(d.tag)}`, consumer),
    write('DELETE', `${V1}/account/hidden/creator/{service}/{id}`, `${V1}/account/hidden/creator/${busiest}`, consumer),
    get(`${V1}/account/hidden`, `${V1}/account/hidden`, consumer),
    get(`${V1}/posts/tags`, `${V1}/posts/tags`, consumer),
    // The personal feed: its token is made per server.
    write('POST', `${V1}/account/favorites/feed`, `${V1}/account/favorites/feed`, { ...consumer, secret: 'token' }),
    get(`${V1}/account/favorites/new`, `${V1}/account/favorites/new`, consumer),
    get(`${V1}/account/favorites/new/count`, `${V1}/account/favorites/new/count`, consumer),
    write('DELETE', `${V1}/account/favorites/feed`, `${V1}/account/favorites/feed`, consumer),
    // Flags: the v2 call, then a moderator dismisses them.
    write('PUT', '/api/v2/account/flags/post', '/api/v2/account/flags/post', {
      as: 'admin',
      body: {
        type: 'flag',
        data: { service: d.flagged.service, creator_id: d.flagged.user, post_id: d.flagged.id, reason: 'reason-other' },
      },
    }),
    get(`${V1}/account/moderator/flags`, `${V1}/account/moderator/flags`, { as: 'moderator' }),
    write(
      'DELETE',
      `${V1}/account/moderator/flags/{service}/{user}/{post}`,
      `${V1}/account/moderator/flags/${d.flagged.service}/${encodeURIComponent(d.flagged.user)}/${encodeURIComponent(d.flagged.id)}`,
      { as: 'moderator' },
    ),
    get(`${V1}/account/moderator/flags`, `${V1}/account/moderator/flags`, { as: 'moderator' }),
    // Takedowns: a post, then the smallest creator; one entry lifted again.
    write(
      'POST',
      `${V1}/admin/takedown/{service}/user/{id}/post/{post}`,
      `${V1}/admin/takedown/${d.showcase.service}/user/${d.showcase.user}/post/${d.showcase.id}`,
      {
        as: 'admin',
        body: { reason: 'Parity: the owner asked.' },
      },
    ),
    get(`${V1}/{service}/user/{id}/post/{post}`, showcase),
    get(`${V1}/{service}/user/{id}/posts`, `${V1}/${d.showcase.service}/user/${d.showcase.user}/posts`),
    get(`${V1}/posts`, `${V1}/posts`),
    write(
      'POST',
      `${V1}/admin/takedown/{service}/user/{id}`,
      `${V1}/admin/takedown/${d.smallest.service}/user/${encodeURIComponent(d.smallest.id)}`,
      {
        as: 'admin',
        body: { reason: 'Parity: the creator asked.' },
      },
    ),
    get(`${V1}/{service}/user/{id}/profile`, `${V1}/${d.smallest.service}/user/${encodeURIComponent(d.smallest.id)}/profile`),
    get(`${V1}/creators`, `${V1}/creators`),
    get(`${V1}/admin/do_not_post`, `${V1}/admin/do_not_post`, { as: 'admin' }),
    write('DELETE', `${V1}/admin/do_not_post/{entry}`, `${V1}/admin/do_not_post/${d.nextDoNotPost}`, { as: 'admin' }),
    get(`${V1}/admin/do_not_post`, `${V1}/admin/do_not_post`, { as: 'admin' }),
    get(`${V1}/admin/audit`, `${V1}/admin/audit`, { as: 'admin' }),
    // Links removed by an administrator.
    write('DELETE', `${V1}/{service}/user/{id}/links`, `${V1}/${d.linked.service}/user/${encodeURIComponent(d.linked.id)}/links`, {
      as: 'admin',
    }),
    get(`${V1}/{service}/user/{id}/links`, `${V1}/${d.linked.service}/user/${encodeURIComponent(d.linked.id)}/links`),
    write('PATCH', '/api/v2/file/{hash}', `/api/v2/file/${d.lockedUnknown}`, {
      body: { type: 'archive', data: { password: 'open-sesame' } },
    }),
    get(`${V1}/file/{hash}`, `${V1}/file/${d.lockedUnknown}`),
    write('PATCH', `${V1}/file/{hash}`, `${V1}/file/${d.lockedKnown}`, { body: ['trove-demo'] }),
    // A second link request, refused through v2.
    write(
      'POST',
      `${V1}/{service}/user/{id}/links/new`,
      `${V1}/${d.unlinked.service}/user/${encodeURIComponent(d.unlinked.id)}/links/new`,
      {
        ...consumer,
        body: { service: d.dmCreator.service, artist_id: d.dmCreator.id, reason: 'Same name.' },
      },
    ),
    get('/api/v2/account/moderator/tasks/creator_links', '/api/v2/account/moderator/tasks/creator_links', { as: 'moderator' }),
    write(
      'POST',
      '/api/v2/account/moderator/creator_link_requests/{id}/reject',
      `/api/v2/account/moderator/creator_link_requests/${d.nextLinkRequest + 1}/reject`,
      { as: 'moderator', body: { type: 'link_request', data: {} } },
    ),
    get(`${V1}/account/moderator/tasks/creator_links`, `${V1}/account/moderator/tasks/creator_links`, { as: 'moderator' }),
    // Last: a new password ends the consumer's sessions (this client keeps the old cookie).
    write('POST', `${V1}/account/change_password`, `${V1}/account/change_password`, {
      ...consumer,
      body: {
        'current-password': 'consumer-password',
        'new-password': 'consumer-password-2',
        'new-password-confirmation': 'consumer-password-2',
      },
    }),
    get(`${V1}/account`, `${V1}/account`, consumer),
  ];
}
