/** Pages that only redirect: random creator, random post, and a post named by service and id. */
import { expect, test } from '@playwright/test';
import { e2eRow } from './e2e-db.ts';

function samplePost(): { service: string; user: string; id: string } {
  return e2eRow(`SELECT service, "user", id FROM posts WHERE service = 'fanbox' ORDER BY seq LIMIT 1`);
}

test('/artists/random sends the visitor to an existing creator', async ({ request }) => {
  for (let n = 0; n < 5; n += 1) {
    const answer = await request.get('/artists/random', { maxRedirects: 0 });
    expect(answer.status()).toBe(302);
    const location = answer.headers().location;
    expect(location).toMatch(/^\/([a-z]+\/user\/[^/]+|discord\/server\/[^/]+)$/);
    // A discord creator's page is its server view (the chat viewer issue builds it).
    if (!location.startsWith('/discord/')) expect((await request.get(location)).status()).toBe(200);
  }
});

test('/posts/random sends the visitor to an existing post, not always the same one', async ({ request }) => {
  const seen = new Set<string>();
  for (let n = 0; n < 8; n += 1) {
    const answer = await request.get('/posts/random', { maxRedirects: 0 });
    expect(answer.status()).toBe(302);
    const location = answer.headers().location;
    expect(location).toMatch(/^\/[a-z]+\/user\/[^/]+\/post\/[^/]+$/);
    seen.add(location);
  }
  expect(seen.size).toBeGreaterThan(1);
  const landed = await request.get([...seen][0]);
  expect(landed.status()).toBe(200);
});

test('/{service}/post/{id} answers 303 to the full post URL, 404 when unknown', async ({ request }) => {
  const post = samplePost();
  const answer = await request.get(`/${post.service}/post/${encodeURIComponent(post.id)}`, { maxRedirects: 0 });
  expect(answer.status()).toBe(303);
  expect(answer.headers().location).toBe(`/${post.service}/user/${encodeURIComponent(post.user)}/post/${encodeURIComponent(post.id)}`);
  expect((await request.get('/fanbox/post/no-such-post', { maxRedirects: 0 })).status()).toBe(404);
  expect((await request.get('/myspace/post/1', { maxRedirects: 0 })).status()).toBe(404);
});
