/**
 * Recorded-shape fixtures of Afdian's web API, one per content kind, for table-driven mapper tests: whole
 * answers ({ec, em, data}) of /api/post/get-detail (and a get-list page, the sponsoring list, a profile),
 * as a key sponsoring 星野工作室 at ¥30 sees them, with the real host names (pic1/vod.afdiancdn.com).
 * Rendered by the fake's own renderers (afdian-data.ts) from the demo dataset. `source` names where each
 * shape comes from in /work/research/afdian.md.
 */
import {
  LOGIN,
  demoDataset,
  notFound,
  ok,
  postObject,
  profileObject,
  realHosts,
  sponsoringItem,
  type AfdianCreator,
} from './afdian-data.ts';

export interface AfdianFixture {
  kind: string;
  source: string;
  /** The HTTP status; application errors are HTTP 200 with ec != 200. */
  status: number;
  body: unknown;
}

const data = demoDataset();
const [hoshino, lumen, jiumeng] = data.creators as [AfdianCreator, AfdianCreator, AfdianCreator];
const detail = (title: string, hasRight = true) => {
  const post = hoshino.posts.find((p) => p.title === title);
  if (!post) throw new Error(`no post ${title}`);
  return ok({ post: postObject(hoshino, post, { hasRight, list: false }, realHosts) });
};

export const afdianFixtures: AfdianFixture[] = [
  {
    kind: 'text only',
    source: 'get-detail data.post fields: notes §2.4 (MD ids 55807586946, 55998206696) and §2.5 (PF, QW)',
    status: 200,
    body: detail('日常碎碎念'),
  },
  {
    kind: 'gallery (cate pic, pics[])',
    source: 'pics on pic1.afdiancdn.com with _w_h_s names: notes §3/§4, sponsor-list avatars in the index',
    status: 200,
    body: detail('四月草图合集'),
  },
  {
    kind: 'file (attachment list)',
    source: "attachment: notes §2.5 (QW reads it generically; the {name,url,size} shape is the fake's choice, open question 3)",
    status: 200,
    body: detail('设定资料下载'),
  },
  {
    kind: 'blog (cate article: HTML with an inline image)',
    source: 'content is HTML with <img src="https://pic1.afdiancdn.com/…">: notes §3 (PF HTML→Markdown)',
    status: 200,
    body: detail('上色教程：云'),
  },
  {
    kind: 'embed (a bilibili link inside the article HTML)',
    source: 'Afdian has no embed block; links live in the HTML (notes §3)',
    status: 200,
    body: detail('上色教程：云'),
  },
  {
    kind: 'video (cate video, signed vod link, video_thumb)',
    source: 'notes §3 (QW test …/video/asset.mp4?sign=&t=&us=, OV)',
    status: 200,
    body: detail('绘画过程录屏'),
  },
  {
    kind: 'audio (cate audio, signed vod link, audio_thumb, ext.audio_duration)',
    source: 'MD id 57553753124 (get-album-post and get-detail samples)',
    status: 200,
    body: detail('睡前故事（音频）'),
  },
  {
    kind: 'locked (has_right 0, has_right_errMsg, "" media, preview content)',
    source: 'notes §3 "Locked posts" (QW no-right records, MD: audio "" without the right); the message text is the fake\'s',
    status: 200,
    body: detail('高级方案专属', false),
  },
  {
    kind: 'deleted (gone from the list; detail answers an ec error)',
    source: 'notes §3 "Deleted" (status values unconfirmed) and §5 (errors are HTTP 200 with ec != 200); ec 404 is the fake\'s choice',
    status: 200,
    body: notFound('动态'),
  },
  {
    kind: 'unicode title',
    source: 'titles are free text (QW falls back to the text when empty)',
    status: 200,
    body: detail('🌸 中文标题 · 日本語 — ünïcödé'),
  },
  {
    kind: 'list page (pinned first, article as excerpt, publish_sn cursor, has_more)',
    source: 'get-list: notes §2.4 (KT, QW, PF paging; user_top pinned)',
    status: 200,
    body: ok({
      list: hoshino.posts.slice(0, 3).map((p) => postObject(hoshino, p, { hasRight: true, list: true }, realHosts)),
      has_more: 1,
    }),
  },
  {
    kind: 'sponsoring (current and expired)',
    source: 'notes §2.2 (MD ids 57553753124 and 55590525144; KT reads sponsoring[].user.user_id)',
    status: 200,
    body: ok({
      sponsoring: [sponsoringItem(hoshino, realHosts), sponsoringItem(lumen, realHosts)],
      sponsoring_expired: [sponsoringItem(jiumeng, realHosts)],
    }),
  },
  {
    kind: 'creator profile (avatar = icon, cover = banner)',
    source: 'get-profile-by-slug: notes §2.3 (MD id 55855894770, PF, QW)',
    status: 200,
    body: ok(profileObject(hoshino, realHosts, true)),
  },
  {
    kind: 'refused key',
    source: "notes §5 (KT: HTTP 401 from /api/my/profile); the body is the fake's choice (open question 1)",
    status: 401,
    body: LOGIN,
  },
];
