/**
 * Chat benchmark step (run by bench/chat.ts with DATA_DIR set): seeds, once, a Discord channel and a
 * Patreon community channel of 100,000 messages each, then times at the first, middle and last
 * offsets: the data module's page query, the API answer over loopback, and the channel page's SSR
 * render in-process (the bytes the page store would keep). Prints one JSON line.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApp } from '../api/app.ts';
import { upsertCreator } from '../api/data/creators.ts';
import {
  getCommunityChannel,
  listCommunityMessages,
  upsertCommunityChannel,
  upsertCommunityMessages,
  type CommunityMessageInput,
} from '../api/data/community.ts';
import {
  getDiscordChannel,
  listDiscordMessages,
  upsertDiscordChannel,
  upsertDiscordMessages,
  type DiscordMessageInput,
} from '../api/data/discord.ts';
import { openSite } from '../scripts/lib/site.ts';
import { CHAT_PAGE_SIZE } from '../shared/constants.ts';
import { lastChatOffset } from '../shared/chat/paging.ts';
import { communityUrl, discordServerUrl, withOffset } from '../shared/urls.ts';
import type { Store } from '../api/data/store.ts';

process.env.NODE_ENV ??= 'production';
const MESSAGES = 100_000;
const BATCH = 5_000;
const RUNS = 25;
const SERVER = '910000000000000001';
const CHANNEL = '910000000000000010';
const CREATOR = 'bench-chat';
const COMMUNITY = 'bench-community';
const START = Date.UTC(2021, 0, 1);

/** Deterministic pseudo-random numbers (mulberry32), so every run seeds the same channel. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const LINES = [
  'just posted the new chapter, **check it out**',
  'anyone know when the next stream is? <@123456789012345678>',
  'see <#910000000000000010> for the rules',
  '`npm run build` fails for me :( ',
  '```js\nconsole.log("hello")\n```',
  '> quoting the announcement\nand replying below',
  'lovely work <:blobheart:396521773144866826> https://example.org/gallery',
  '- first\n- second\n- third',
];

async function seedDiscord(db: Store): Promise<void> {
  await upsertCreator(db, { service: 'discord', id: SERVER, name: 'Bench server' });
  await upsertDiscordChannel(db, { id: CHANNEL, server_id: SERVER, name: 'long-channel', position: 0 });
  const next = random(7);
  let at = START;
  for (let from = 0; from < MESSAGES; from += BATCH) {
    const batch: DiscordMessageInput[] = [];
    for (let n = from; n < from + BATCH; n += 1) {
      // Mostly short gaps (grouped runs), sometimes long ones (new groups).
      at += next() < 0.8 ? 20_000 + Math.floor(next() * 60_000) : 600_000 + Math.floor(next() * 3_600_000);
      const author = Math.floor(next() * 12);
      batch.push({
        id: `92${String(n).padStart(16, '0')}`,
        server_id: SERVER,
        channel_id: CHANNEL,
        author: {
          id: `8${String(author).padStart(17, '0')}`,
          username: `member${author}`,
          global_name: `Member ${author}`,
          avatar: null,
          discriminator: '0',
        },
        content: `${LINES[n % LINES.length]} (#${n})`,
        embeds:
          n % 50 === 0
            ? [{ type: 'rich', title: `Embed ${n}`, description: 'An embed', color: 3447003, provider: { name: 'Example' } }]
            : [],
        attachments: n % 40 === 0 ? [{ name: `image-${n}.png`, path: `/ab/cd/${'ab'.repeat(32)}.png` }] : [],
        published: new Date(at).toISOString(),
      });
    }
    await upsertDiscordMessages(db, batch);
  }
}

async function seedCommunity(db: Store): Promise<void> {
  await upsertCreator(db, { service: 'patreon', id: CREATOR, name: 'Bench community' });
  await upsertCommunityChannel(db, {
    channel_id: COMMUNITY,
    creator_id: CREATOR,
    name: 'long-channel',
    messages_refreshed_at: '2024-01-01T00:00:00',
  });
  const roles = ['user', 'campaign', 'admin', 'patreon_admin'];
  for (let from = 0; from < MESSAGES; from += BATCH) {
    const batch: CommunityMessageInput[] = [];
    for (let n = from; n < from + BATCH; n += 1) {
      const created = new Date(START + n * 45_000).toISOString();
      batch.push({
        message_id: `cm${String(n).padStart(8, '0')}`,
        channel_id: COMMUNITY,
        created_at: created,
        deleted_at: n % 97 === 0 ? created : null,
        embeds: n % 60 === 0 ? [{ type: 'link', title: `Link ${n}`, title_link: 'https://example.org' }] : [],
        original_json: {
          user: { name: `Patron ${n % 9}`, role: roles[n % 4] },
          created_at: created,
          text: `${LINES[n % LINES.length]} (#${n})`,
        },
      });
    }
    await upsertCommunityMessages(db, batch);
  }
}

function stats(samples: number[]) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => Number(sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(2));
  return { median_ms: at(0.5), p95_ms: at(0.95), max_ms: at(1) };
}

async function time(run: () => unknown | Promise<unknown>) {
  await run(); // warm: statements prepared, modules loaded
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    const start = performance.now();
    await run();
    samples.push(performance.now() - start);
  }
  return stats(samples);
}

function get(url: string): Promise<{ status: number; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
      })
      .on('error', reject);
  });
}

const site = await openSite();
const seedStart = performance.now();
if (((await getDiscordChannel(site.db, CHANNEL))?.post_count ?? 0) < MESSAGES) await seedDiscord(site.db);
if (((await getCommunityChannel(site.db, COMMUNITY))?.post_count ?? 0) < MESSAGES) await seedCommunity(site.db);
const seedSeconds = (performance.now() - seedStart) / 1000;

const api = http.createServer(createApp({ db: site.db, config: site.config, logger: { error() {} } }));
await new Promise<void>((resolve) => api.listen(0, '127.0.0.1', resolve));
const base = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;

const last = lastChatOffset(MESSAGES);
const offsets = { first: 0, middle: Math.floor(MESSAGES / 2 / CHAT_PAGE_SIZE) * CHAT_PAGE_SIZE, last };

async function expectOk(url: string, render: boolean) {
  const answer = render ? await site.renderer.render(url) : await get(base + url);
  return answer.status;
}

const results: Record<string, Record<string, unknown>> = {};
for (const [name, offset] of Object.entries(offsets)) {
  const discordApi = `/api/v1/discord/channel/${CHANNEL}?o=${offset}`;
  const communityApi = `/api/v1/patreon/user/${COMMUNITY}/community/messages?o=${offset}`;
  const discordPage = withOffset(discordServerUrl(SERVER, CHANNEL), offset);
  const communityPage = withOffset(communityUrl(CREATOR, COMMUNITY), offset);
  results[name] = {
    offset,
    discord_query: await time(() => listDiscordMessages(site.db, CHANNEL, offset, CHAT_PAGE_SIZE)),
    discord_api: { status: await expectOk(discordApi, false), ...(await time(() => get(base + discordApi))) },
    discord_page: { status: await expectOk(discordPage, true), ...(await time(() => site.renderer.render(discordPage))) },
    community_query: await time(() => listCommunityMessages(site.db, COMMUNITY, offset, CHAT_PAGE_SIZE)),
    community_api: { status: await expectOk(communityApi, false), ...(await time(() => get(base + communityApi))) },
    community_page: { status: await expectOk(communityPage, true), ...(await time(() => site.renderer.render(communityPage))) },
  };
}
// A link to the channel's oldest message: the page has to find which 150 hold it.
const oldestMessage = discordServerUrl(SERVER, CHANNEL, `92${'0'.repeat(16)}`);
results.message_link = { status: await expectOk(oldestMessage, true), ...(await time(() => site.renderer.render(oldestMessage))) };

api.close();
await site.close();
console.log(
  JSON.stringify({ messages: MESSAGES, runs: RUNS, seedSeconds: Number(seedSeconds.toFixed(1)), ...results, node: process.version }),
);
