/**
 * One patreon post that carries everything the post page can show, so the demo archive and the browser
 * tests always have it: several images, videos, downloads with archives, a poll of five choices, many
 * tags, an embed, two earlier versions, and comments (a reply, and one edited twice). It rewrites an
 * existing post (the middle one of the busiest patreon creator), so the counts of the archive stay
 * as they were. Deterministic.
 */
import type { Store } from '@api/data/store.ts';
import { getPost, upsertPost, type PostFileInput, type PostInput } from '@api/data/posts.ts';
import { upsertComment } from '@api/data/comments.ts';
import type { MediaPool, PoolFile } from './media.ts';
import type { SeededCreator } from './extras.ts';
import { DAY, iso } from './time.ts';

export const SHOWCASE_TAGS = [
  'illustration',
  'original character',
  'fantasy',
  'dragons',
  'work in progress',
  'timelapse',
  'sketchbook',
  'colour study',
  'landscape',
  'patron reward',
  'high resolution',
  'オリジナル',
  '插画',
  'poll results',
];

export const SHOWCASE_POLL_VOTES = [120, 45, 300, 45, 7];

const file = (pool: PoolFile): PostFileInput => ({ name: pool.name, path: pool.path, hash: pool.hash });

export async function seedShowcasePost(
  db: Store,
  ctx: { creators: SeededCreator[]; pool: MediaPool; timeline: { start: number; end: number } },
): Promise<void> {
  const patreon = ctx.creators.filter((c) => c.service === 'patreon' && c.postIds.length >= 3);
  if (patreon.length === 0) return;
  const creator = patreon.reduce((best, c) => (c.postIds.length > best.postIds.length ? c : best));
  const postId = creator.postIds[Math.floor(creator.postIds.length / 2)];
  const original = await getPost(db, 'patreon', creator.id, postId);
  if (!original) return;
  const { images, zips, videos, documents } = ctx.pool;
  const publishedMs = Date.parse(`${original.published ?? original.added}Z`);
  const choices = ['Dragons', 'Robots', 'Landscapes', 'Portraits', 'Comics'].map((text, i) => ({ text, votes: SHOWCASE_POLL_VOTES[i] }));
  const showcase: PostInput = {
    service: 'patreon',
    user: creator.id,
    id: postId,
    title: 'Dragon keep: finished piece, timelapse and your poll',
    content:
      '<p>The dragon keep is finished! Full-size files are below, with the timelapse and the layered zip.</p>' +
      '<p>Thanks for voting in the poll: <strong>Landscapes</strong> won, see you in the next one.</p>' +
      '<p><a href="https://example.com/dragon-keep">Making-of notes</a></p>',
    published: original.published,
    edited: iso(publishedMs + DAY),
    file: file(images[0]),
    attachments: [images[1], images[2], zips[0], videos[0], videos[1], documents[0]].filter(Boolean).map(file),
    tags: SHOWCASE_TAGS,
    embed: {
      url: 'https://www.youtube.com/watch?v=dragonkeep1',
      subject: 'Dragon keep timelapse',
      description: 'Six hours of painting in four minutes.',
    },
    poll: {
      title: 'Which theme should the next big piece have?',
      description: 'Pick one; the poll closes in a week.',
      choices,
      total_votes: choices.reduce((sum, c) => sum + c.votes, 0),
      created_at: iso(publishedMs),
      closes_at: iso(publishedMs + 7 * DAY),
      allow_multiple: false,
    },
  };
  // Two earlier versions: the post as first seeded, then a draft of the showcase.
  await upsertPost(
    db,
    { ...showcase, title: 'Dragon keep (work in progress)', tags: SHOWCASE_TAGS.slice(0, 4), edited: iso(publishedMs + DAY / 2) },
    { now: iso(publishedMs + DAY / 2) },
  );
  await upsertPost(db, showcase, { now: iso(publishedMs + DAY) });

  const comment = { service: 'patreon', user: creator.id, post_id: postId, commenter: '777001' };
  const at = (hours: number) => iso(publishedMs + hours * 3_600_000);
  await upsertComment(
    db,
    {
      ...comment,
      id: '888000001',
      commenter_name: 'dragon_fan',
      content: 'This is my favourite piece so far!',
      published: at(2),
      added: at(2),
    },
    { now: at(2) },
  );
  await upsertComment(
    db,
    {
      ...comment,
      id: '888000002',
      parent_id: '888000001',
      commenter: '777002',
      commenter_name: 'Mikan',
      content: 'Thank you! The next one will be a landscape.',
      published: at(3),
      added: at(3),
    },
    { now: at(3) },
  );
  const edited = { ...comment, id: '888000003', commenter: '777003', commenter_name: 'sketchy', published: at(4), added: at(4) };
  await upsertComment(db, { ...edited, content: 'Is the zip the layerd file?' }, { now: at(4) });
  await upsertComment(db, { ...edited, content: 'Is the zip the layered file?' }, { now: at(5) });
  await upsertComment(db, { ...edited, content: 'Is the zip the layered file? Found it, thanks!' }, { now: at(6) });
}
