/**
 * Recorded-shape fixtures of api.boosty.to answers, one per content kind, for table-driven mapper tests:
 * the post objects of GET /v1/blog/{blogUrl}/post/{id} (the same objects the list's `data` holds) as the key
 * holding the 300 ₽ level sees them, with the real host names (images.boosty.to, cdn.boosty.to, an OK.ru
 * video CDN) and a fixed signedQuery. They are rendered by the fake's own renderers (boosty-render.ts) from
 * the demo dataset, so a mapper tested on them reads what the fake serves. `source` names where each
 * shape comes from in /work/research/boosty.md.
 */
import { demoDataset, realHosts, type BoostyBlog, type BoostyPost } from './boosty-data.ts';
import { blogObject, postObject, subscriptionObject } from './boosty-render.ts';

export interface BoostyFixture {
  kind: string;
  source: string;
  status: number;
  body: unknown;
}

const SIGNED_QUERY =
  '?user_id=30000001&content_id=5547104&expire_time=1711114234&sign=3f9c2a7be1d04c5f8a6b9e0d1c2b3a4f5e6d7c8b9a0f1e2d3c4b5a6f7e8d9c0b';

const data = demoDataset();
const [mariya, synth] = data.blogs as [BoostyBlog, BoostyBlog];
const byTitle = (blog: BoostyBlog, title: string | null): BoostyPost => {
  const post = blog.posts.find((p) => p.title === title);
  if (!post) throw new Error(`no post ${title}`);
  return post;
};
const seen = (blog: BoostyBlog, title: string | null, hasAccess = true) =>
  postObject(blog, byTitle(blog, title), { hasAccess, signedQuery: SIGNED_QUERY, commentsLimit: 2, replyLimit: 1 }, realHosts, () => 10941);

export const boostyFixtures: BoostyFixture[] = [
  {
    kind: 'text only (header, bold/italic ranges, ordered list, smile, unknown block type)',
    source:
      'text/list/smile blocks: notes §3 (boosty-downloader post_data_types, BoostBuddy Posts.kt style triples; hologram_message from BD test/fixtures/single_post.json); post fields: GD test results + BD fixture (§2.5)',
    status: 200,
    body: seen(mariya, 'Заметки о цвете'),
  },
  {
    kind: 'gallery (three image blocks)',
    source: 'image block {id,url,width,height,size,rendition,isInvalid}: notes §3 (RS media_content.rs, BD fixture)',
    status: 200,
    body: seen(mariya, 'Скетчи недели'),
  },
  {
    kind: 'files with real names (zip and png)',
    source:
      'file block {id,url,title,size,complete,isInvalid}, cdn.boosty.to/file/{uuid}: notes §3 (gallery-dl issue #2387 sample) and §4 (signedQuery)',
    status: 200,
    body: seen(mariya, 'Исходники PSD'),
  },
  {
    kind: 'blog post with an inline image and an inline link',
    source: 'runs of text/link blocks ended by BLOCK_END, image between paragraphs: notes §3 (BoostBuddy merge rule, BD link block)',
    status: 200,
    body: seen(mariya, 'Как я рисую облака ☁️'),
  },
  {
    kind: 'embed (external YouTube video block)',
    source: 'video block {url}: notes §3 (BD post_data_video)',
    status: 200,
    body: seen(mariya, 'Стрим на YouTube'),
  },
  {
    kind: 'video (ok_video with playerUrls; unused qualities "")',
    source:
      'ok_video block and playerUrls types: notes §3 (gallery-dl _extract_video docs, BD ok_video_ranking); host names unconfirmed (§4, open question 5)',
    status: 200,
    body: seen(mariya, 'Таймлапс: закат'),
  },
  {
    kind: 'audio (audio_file block)',
    source: 'audio_file fields: notes §3 (BD post_data_audio, RS media_content.rs)',
    status: 200,
    body: seen(mariya, 'Подкаст #1'),
  },
  {
    kind: 'locked (level too low: hasAccess false, data [], teaser, single-purchase price)',
    source: 'notes §3 "Locked posts" (RS empty data check, GD "Not allowed to access post"); signedQuery "" (issue #2387)',
    status: 200,
    body: seen(mariya, 'Только для меценатов', false),
  },
  {
    kind: 'deleted (gone: 404 on its own, absent from the list)',
    source:
      'notes §2.5 (BD: 404 when the post is not in that blog) and §3 "Deleted"; the error body is the fake\'s choice (§8 open question 6)',
    status: 404,
    body: { error: 'post_not_found', error_description: 'Post not found' },
  },
  {
    kind: 'unicode title and body, tags',
    source: 'tags [{id,title}]: notes §3; titles are free text',
    status: 200,
    body: seen(mariya, '日本語タイトル — ünïcödé ✨ 🎉'),
  },
  {
    kind: 'pinned post',
    source: 'isPinned and sortOrder: notes §2.4/§2.5 (BD fixture sortOrder above publishTime)',
    status: 200,
    body: seen(mariya, 'Добро пожаловать! 📌'),
  },
  {
    kind: 'poll and comments preview (comments_limit=2, reply_limit=1)',
    source: 'poll: notes §3 (BoostBuddy RemotePostResponse); comments object: notes §2.5 and gallery-dl issue #7303 dump',
    status: 200,
    body: { poll: seen(mariya, 'Опрос: следующая тема'), comments: seen(mariya, 'Заметки о цвете').comments },
  },
  {
    kind: 'subscription list item (paid level, and a free follow)',
    source: 'RS tests/fixtures/api_response_subscriptions.json (notes §2.2)',
    status: 200,
    body: { data: [subscriptionObject(mariya, realHosts), subscriptionObject(synth, realHosts)], total: 2, limit: 30, offset: 0 },
  },
  {
    kind: 'blog profile (icon = owner.avatarUrl, banner = coverUrl)',
    source: 'notes §2.3 (GD user, BB blogInfo); fields past title/blogUrl/owner by analogy with the subscription copy',
    status: 200,
    body: blogObject(mariya, realHosts),
  },
  {
    kind: 'refresh answer',
    source: 'POST /oauth/token/ answer: notes §1 (RS auth_provider.rs mock, BD 962eceb oauth_manager.py)',
    status: 200,
    body: { access_token: 'c1d2…', refresh_token: 'e3f4…', expires_in: 3600 },
  },
];
