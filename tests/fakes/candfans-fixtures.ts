/**
 * Recorded-shape CandFans answers, one per content kind, for table-driven mapper tests: timeline
 * posts as GET /api/contents/get-timeline lists them (inside its {status, message, data} envelope),
 * one post as get-timeline/{post_id} answers it, and a get-users answer, exactly as the fake renders
 * them with CandFans' real hosts (image.candfans.jp, video.candfans.jp). CandFans has no tags, polls,
 * embeds or file names (links are plain text; names come from the path). Sources are cited per
 * fixture; "KO" is komanushi/candfans-client (tests/data recorded answers, models/timeline.py), "MG"
 * miraged3/candfans-downloader, "DJ" djandDK/Candfans-ripper, "notes" /work/research/candfans.md.
 */
import { jst, renderPlan, renderPost, renderPostDetail, renderUser, type CandfansCreator, type CandfansPost, type RenderContext } from './candfans-data.ts';

const ctx: RenderContext = { image: 'https://image.candfans.jp', video: 'https://video.candfans.jp' };
const creator: CandfansCreator = {
  id: 9000001,
  code: 'sakura_cf',
  name: 'さくら Sakura',
  profileText: '写真と声のクリエイターです。',
  plans: [
    { id: 501, name: 'ライト', price: 1000, detail: '日常の写真と動画', joined: true },
    { id: 502, name: 'プレミアム', price: 3000, detail: '限定写真とバックナンバー', joined: false },
  ],
  followed: true,
  posts: [],
};
const p = (id: number, kind: CandfansPost['kind'], postType: CandfansPost['postType'], title: string, text: string, extra: Partial<CandfansPost> = {}): CandfansPost => ({
  id,
  date: jst(id % 28 || 1),
  kind,
  postType,
  title,
  text,
  files: kind === 'text' ? [] : kind === 'images' ? [`${id}a-1f2e`, `${id}b-3d4c`, `${id}c-5b6a`] : [`${id}v-7f8e`],
  planIds: postType === 1 || postType === 3 ? [501] : [],
  ...extra,
});
/** The timeline answer holding one post. */
const timeline = (post: CandfansPost) => ({ status: 'SUCCESS', message: 'タイムラインを取得しました。', data: [renderPost(ctx, creator, post)] });

export const CANDFANS_FIXTURES = {
  /** contents_type 0, public (post_type 0): KO get-timeline recorded answer fields; DJ contents_type values. */
  textOnly: { source: 'KO tests/data get-timeline; DJ contents_type 0', answer: timeline(p(880011, 'text', 0, 'はじめまして', 'CandFansはじめました！よろしくお願いします。')) },
  /** contents_type 1 with one image: contents_path1 + attachments[].default on image.candfans.jp: notes 3, MG. */
  image: { source: 'KO models/timeline.py; MG attachments[].default; DJ image host', answer: timeline(p(880022, 'images', 1, '一枚だけ', 'お気に入りの一枚', { files: ['880022a-1f2e'] })) },
  /** contents_type 1 with three images (contents_path1..3, image_count 3). */
  gallery: { source: 'KO models/timeline.py (contents_path1..4, image_count)', answer: timeline(p(880033, 'images', 1, '撮影オフショット', '今日の撮影のオフショットです📸')) },
  /** contents_type 2: contents_path1 `…_high.m3u8`, movie_time, thumbnail_file; attachments[].default a master playlist on video.candfans.jp, low the low rendition: KO recorded answer, MG HLS handling, DJ video host. */
  video: { source: 'KO get-timeline (…_high.m3u8, movie_time); MG downloader.py; DJ', answer: timeline(p(880044, 'video', 1, 'メイキング動画', '撮影の裏側を動画で。')) },
  /** contents_type 3: audio_time, an MP3 (host and format are the fake's choice): DJ contents_type 3, KO audio_time. */
  audio: { source: 'DJ contents_type 3; KO models/timeline.py audio_time', answer: timeline(p(880055, 'audio', 1, 'ボイスメッセージ', 'おやすみボイスです🌙')) },
  /** Plan-limited to a plan not joined: can_browsing 0, plans[].is_joined_plan false, no paths/attachments: XD "1: you can | 0: you can't", KO plans[]; notes 3 "Locked". */
  locked: { source: 'XD can_browsing; KO plans[].is_joined_plan; notes 3', answer: timeline(p(880066, 'images', 1, 'プレミアム限定', '上位プラン限定の写真です。', { planIds: [502] })) },
  /** post_type 2 with a price, not bought: notes 3 (sold individually). */
  soldSeparately: { source: 'KO PostType 2; notes 3', answer: timeline(p(880077, 'video', 2, '単品販売の動画', '単品でご購入いただけます。', { price: 1500 })) },
  /** post_type 3, back-number (backnumber_price, add_backnumber_date): KO recorded plans[] fields; notes 3. */
  backNumber: { source: 'KO get-timeline plans[] backnumber fields; notes 3', answer: timeline(p(880088, 'images', 3, 'バックナンバー', '先月のバックナンバーです。', { planIds: [502] })) },
  /** Unicode title, newlines and HTML-looking plain text: notes 3 "Text". */
  unicode: { source: 'notes 3 (plain text)', answer: timeline(p(880099, 'images', 1, '絵文字とUnicode ✨ «Ünïcödé»', '改行も\nあります & <b>タグではない</b>', { files: ['880099a-1f2e'] })) },
  /** A link in plain text (no embeds on CandFans). */
  link: { source: 'notes 3 (plain text)', answer: timeline(p(880110, 'text', 0, 'お知らせ', 'ウィッシュリストはこちら https://example.com/wishlist')) },
  /** limit_post_date set (the post expires): KO recorded field; notes 3 "Dates". */
  expiring: { source: 'KO limit_post_date; notes 3', answer: timeline(p(880121, 'images', 1, '期間限定公開', '月末まで公開です。', { files: ['880121a-1f2e'], limitDate: '2024-02-29 23:59:59' })) },
  /** get-timeline/{post_id}: data.post with post_attachments[].default_path: DJ, script id 20812315575 in the notes. */
  detail: { source: 'DJ Candfans-ripper.ps1 (post_attachments, default_path); notes 2.5', answer: { status: 'SUCCESS', message: '投稿を取得しました。', data: { post: renderPostDetail(ctx, creator, p(880132, 'images', 1, '撮影オフショット', '今日の撮影のオフショットです📸')) } } },
  /** get-users: data.user (relative profile_img / profile_cover_img) and data.plans: KO recorded get-users answer. */
  profile: { source: 'KO tests/data get-users?user_code=dummy_user', answer: { status: 'SUCCESS', message: 'ユーザー情報を取得しました。', data: { user: renderUser(creator, true), plans: creator.plans.map((plan) => renderPlan(creator, plan)) } } },
};
