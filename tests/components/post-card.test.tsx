/**
 * The post card is one React component: the listings render it statically (these pages, through the
 * real front server) and the islands in the browser, so a listing's cards are exactly what the
 * component renders for the same posts.
 */
import { renderToString } from 'react-dom/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostCard } from '@site/components/archive/PostCard.tsx';
import type { PostCardData } from '@shared/shapes/posts.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { upsertPost } from '@api/data/posts.ts';
import { createTestSite, type TestSite } from '../helpers/front-server.ts';
import { httpRequest } from '../helpers/http.ts';

const PNG = `/ab/cd/${'ab'.repeat(32)}.png`;
const POSTS: PostCardData[] = [
  // Characters to escape in the title, an image file and an attachment.
  {
    service: 'fanbox',
    user: '7',
    id: '3',
    title: `Tom & Jerry's <"cut">`,
    published: '2024-06-04T23:53:36',
    file: { path: PNG },
    attachments: [{ path: '/12/34/x.zip' }],
  },
  // No title (the content stands in), no date, no thumbnail.
  { service: 'fanbox', user: '7', id: '2', title: '', substring: 'Only content here', published: null, file: {}, attachments: [] },
  { service: 'fanbox', user: '7', id: '1', title: 'x'.repeat(60), published: '2020-01-02T03:04:05', file: {}, attachments: [] },
];

let site: TestSite;
let base: string;

beforeAll(async () => {
  site = await createTestSite('post-card');
  await upsertCreator(site.db, { service: 'fanbox', id: '7', name: 'Card maker' });
  for (const [index, post] of POSTS.entries()) {
    await upsertPost(site.db, {
      service: post.service,
      user: post.user,
      id: post.id,
      title: post.title,
      content: post.substring ? `<p>${post.substring}</p>` : '',
      published: post.published,
      added: `2024-01-0${3 - index}T00:00:00`,
      file: post.file && 'path' in post.file ? { path: post.file.path!, name: 'a.png' } : null,
      attachments: (post.attachments ?? []).map((attachment) => ({ path: attachment.path!, name: 'x.zip' })),
    });
  }
  base = await site.start();
}, 300_000);

afterAll(() => site?.close());

describe('post cards on the listings', () => {
  for (const path of ['/posts', '/fanbox/user/7']) {
    it(`${path} renders the PostCard component`, async () => {
      const html = (await httpRequest(`${base}${path}`)).body.toString();
      expect(html).toContain('<div class="card-grid"><article class="post-card"');
      const cards = html.match(/<article class="post-card".*?<\/article>/gs) ?? [];
      expect(cards).toHaveLength(POSTS.length);
      for (const post of POSTS) expect(cards).toContain(renderToString(<PostCard post={post} imageHost={site.config.imageHost} />));
    });
  }
});
