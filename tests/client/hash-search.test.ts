/** The island's hash search call against the real API app over real HTTP. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@api/app.ts';
import { registerFile } from '@api/data/files.ts';
import { upsertCreator } from '@api/data/creators.ts';
import { upsertPost } from '@api/data/posts.ts';
import { upsertDiscordChannel, upsertDiscordMessages } from '@api/data/discord.ts';
import { ApiError, createApiClient, type ApiClient } from '@site/client/api-client.ts';
import { readConfig } from '@api/config.ts';
import { discordHitLabel, fetchHashSearch } from '@site/client/hash-search.ts';
import { isEmptyAnswer } from '@shared/hash-search.ts';
import { discordServerUrl, hashSearchUrl } from '@shared/urls.ts';
import { tempDb, type TempDb } from '../api/data/helpers.ts';

const IMAGE = '1f'.repeat(32);
const ORPHAN = '2e'.repeat(32);

let t: TempDb;
let server: http.Server;
let client: ApiClient;

beforeAll(async () => {
  t = tempDb();
  await registerFile(t.db, { hash: IMAGE, size: 5, ext: 'png', added: '2024-01-02T03:04:05' });
  await registerFile(t.db, { hash: ORPHAN, size: 5, ext: 'txt', added: '2024-01-02T03:04:05' });
  await upsertCreator(t.db, { service: 'fanbox', id: '7', name: 'Seven' });
  await upsertPost(t.db, { service: 'fanbox', user: '7', id: '70', title: 'Has it', file: { name: 'a.png', path: `/1f/1f/${IMAGE}.png` } });
  await upsertCreator(t.db, { service: 'discord', id: '800', name: 'Guild' });
  await upsertDiscordChannel(t.db, { id: '801', server_id: '800', name: 'art' });
  await upsertDiscordMessages(t.db, [
    {
      id: '8001',
      server_id: '800',
      channel_id: '801',
      author: { id: '1', username: 'someone' } as never,
      published: '2024-01-01T00:00:00',
      attachments: [{ name: 'a.png', path: `/1f/1f/${IMAGE}.png` }],
    },
  ]);
  const app = createApp({ db: t.db, config: { ...readConfig({}), dataDir: t.dir } });
  server = http.createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  client = createApiClient({ baseUrl: `http://127.0.0.1:${port}`, retries: 0 });
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  t.cleanup();
});

describe('fetchHashSearch', () => {
  it('gives the posts and Discord messages carrying the file', async () => {
    const answer = await fetchHashSearch(IMAGE, client);
    expect(answer?.hash).toBe(IMAGE);
    expect(answer?.posts.map((post) => post.id)).toEqual(['70']);
    expect(answer?.discord_posts.map((hit) => hit.id)).toEqual(['8001']);
    expect(isEmptyAnswer(answer)).toBe(false);
    expect(discordHitLabel(answer!.discord_posts[0]!)).toBe('Server Guild channel art');
  });

  it('treats a known file that nothing carries as empty', async () => {
    const answer = await fetchHashSearch(ORPHAN, client);
    expect(answer).not.toBeNull();
    expect(isEmptyAnswer(answer)).toBe(true);
  });

  it('turns 404 (unknown hash) into null', async () => {
    expect(await fetchHashSearch('3d'.repeat(32), client)).toBeNull();
    expect(isEmptyAnswer(null)).toBe(true);
  });

  it('throws other failures as ApiError with the server message', async () => {
    const error = await fetchHashSearch('not-a-hash', client).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(400);
    expect((error as ApiError).serverMessage).toBe('Invalid hash!');
  });
});

describe('discordHitLabel', () => {
  it('falls back to ids when the archive has no names', () => {
    expect(discordHitLabel({ server: '1', server_name: null, channel: '2', channel_name: '' })).toBe('Server 1 channel 2');
  });
});

describe('URL builders', () => {
  it('builds the Discord view URL at a server, channel and message', () => {
    expect(discordServerUrl('1')).toBe('/discord/server/1');
    expect(discordServerUrl('1', '2')).toBe('/discord/server/1/2');
    expect(discordServerUrl('1', '2', '3')).toBe('/discord/server/1/2/3');
    expect(discordServerUrl('1', undefined, '3')).toBe('/discord/server/1');
    expect(discordServerUrl('a/b', 'c d')).toBe('/discord/server/a%2Fb/c%20d');
  });

  it('builds the hash search URL', () => {
    expect(hashSearchUrl()).toBe('/search_hash');
    expect(hashSearchUrl(IMAGE)).toBe(`/search_hash?hash=${IMAGE}`);
  });
});
