/**
 * Recorded-shape CandFans answers, one per content kind, for table-driven mapper tests: timeline
 * posts as GET /api/contents/get-timeline lists them (inside its {status, message, data} envelope),
 * one post as get-timeline/{post_id} answers it, and a get-users answer, exactly as the fake renders
 * them (candfans-data.ts, over Sakura's posts of the demo dataset) with CandFans' real hosts
 * (image.candfans.jp, video.candfans.jp). CandFans has no tags, polls, embeds or file names (links are
 * plain text; names come from the path). Sources are cited per fixture; "KO" is
 * komanushi/candfans-client (tests/data recorded answers, models/timeline.py), "MG"
 * miraged3/candfans-downloader, "DJ" djandDK/Candfans-ripper, "notes" /work/research/candfans.md.
 */
import { demoDataset, postAnswer, timelineAnswer, userAnswer, type RenderContext } from './candfans-data.ts';

const ctx: RenderContext = { image: 'https://image.candfans.jp', video: 'https://video.candfans.jp' };
const [sakura] = demoDataset().creators;
const post = (title: string) => {
  const found = sakura.posts.find((p) => p.title === title);
  if (!found) throw new Error(`no post ${title}`);
  return found;
};
/** The timeline answer holding one post. */
const timeline = (title: string) => timelineAnswer(ctx, sakura, [post(title)]);

export const CANDFANS_FIXTURES = {
  /** contents_type 0, public (post_type 0): KO get-timeline recorded answer fields; DJ contents_type values. */
  textOnly: { source: 'KO tests/data get-timeline; DJ contents_type 0', answer: timeline('はじめまして') },
  /** contents_type 1 with one image: contents_path1 + attachments[].default on image.candfans.jp: notes 3, MG. */
  image: { source: 'KO models/timeline.py; MG attachments[].default; DJ image host', answer: timeline('一枚だけ') },
  /** contents_type 1 with three images (contents_path1..3, image_count 3). */
  gallery: { source: 'KO models/timeline.py (contents_path1..4, image_count)', answer: timeline('撮影オフショット') },
  /** contents_type 2: contents_path1 `…_high.m3u8`, movie_time, thumbnail_file; attachments[].default a master playlist on video.candfans.jp, low the low rendition: KO recorded answer, MG HLS handling, DJ video host. */
  video: { source: 'KO get-timeline (…_high.m3u8, movie_time); MG downloader.py; DJ', answer: timeline('メイキング動画') },
  /** contents_type 3: audio_time, an MP3 (host and format are the fake's choice): DJ contents_type 3, KO audio_time. */
  audio: { source: 'DJ contents_type 3; KO models/timeline.py audio_time', answer: timeline('ボイスメッセージ') },
  /** Plan-limited to a plan not joined: can_browsing 0, plans[].is_joined_plan false, no paths/attachments: XD "1: you can | 0: you can't", KO plans[]; notes 3 "Locked". */
  locked: { source: 'XD can_browsing; KO plans[].is_joined_plan; notes 3', answer: timeline('プレミアム限定') },
  /** post_type 2 with a price, not bought: notes 3 (sold individually). */
  soldSeparately: { source: 'KO PostType 2; notes 3', answer: timeline('単品販売の動画') },
  /** post_type 3, back-number (backnumber_price, add_backnumber_date): KO recorded plans[] fields; notes 3. */
  backNumber: { source: 'KO get-timeline plans[] backnumber fields; notes 3', answer: timeline('バックナンバー') },
  /** Unicode title, newlines and HTML-looking plain text: notes 3 "Text". */
  unicode: { source: 'notes 3 (plain text)', answer: timeline('絵文字とUnicode ✨ «Ünïcödé»') },
  /** A link in plain text (no embeds on CandFans). */
  link: { source: 'notes 3 (plain text)', answer: timeline('お知らせ') },
  /** limit_post_date set (the post expires): KO recorded field; notes 3 "Dates". */
  expiring: { source: 'KO limit_post_date; notes 3', answer: timeline('期間限定公開') },
  /** get-timeline/{post_id}: data.post with post_attachments[].default_path: DJ, script id 20812315575 in the notes. */
  detail: {
    source: 'DJ Candfans-ripper.ps1 (post_attachments, default_path); notes 2.5',
    answer: postAnswer(ctx, sakura, post('撮影オフショット')),
  },
  /** get-users: data.user (relative profile_img / profile_cover_img) and data.plans: KO recorded get-users answer. */
  profile: { source: 'KO tests/data get-users?user_code=dummy_user', answer: userAnswer(sakura, true) },
};
