/**
 * The Discord importer, run by the real import worker against a real SQLite file and data folder and
 * the fake Discord of tests/fakes/discord.ts (a real HTTP server answering Discord's paths and shapes).
 */
import { workerCrash } from '../../helpers/worker-crash.ts';
import fs from 'node:fs';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { getCreator } from '@api/data/creators.ts';
import { addAutoImportKey } from '@api/data/auto-import-keys.ts';
import { createImport, getImport, getImportLogs, getImportWorkKey, updateImport } from '@api/data/imports.ts';
import { listDiscordChannels, listDiscordMessages } from '@api/data/discord.ts';
import { nowIso } from '@api/data/util.ts';
import { sealForWorker } from '@api/importer/work-key.ts';
import { startImportWorker, type ImportWorker } from '@api/importer/worker.ts';
import { readConfig } from '@api/config.ts';
import { startFakeDiscord, type FakeDiscord } from '../../fakes/discord.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

let t: TempDb;
let fake: FakeDiscord;
let config: ReturnType<typeof readConfig>;
const workers: ImportWorker[] = [];
const GUILD_NAME = "Mikan's Studio";

beforeEach(async () => {
  t = tempDb();
  fake = await startFakeDiscord({ bigFileBytes: 1.5 * 1024 * 1024 });
  config = readConfig({
    DATA_DIR: t.dir,
    TROVE_ENV: 'test',
    IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1',
    IMPORTER_DISCORD_URL: fake.apiUrl,
    IMPORTER_DISCORD_CDN_URL: fake.cdnUrl,
    IMPORTER_MAX_FILE_MB: '1',
  });
});
afterEach(async () => {
  await Promise.all(workers.splice(0).map((w) => w.stop()));
  await fake.close();
  t.cleanup();
});

let counter = 0;
async function queue(channels: string[], options: { key?: string; key_id?: number } = {}): Promise<string> {
  const id = `discord-${++counter}`;
  await createImport(t.db, {
    id,
    service: 'discord',
    channel_ids: channels.join(','),
    key_id: options.key_id ?? null,
    work_key: sealForWorker(config, id, options.key ?? fake.token),
  });
  return id;
}

function worker(): ImportWorker {
  const w = startImportWorker({ db: t.db, config }, { autoStart: false, backoffMs: 1000 });
  workers.push(w);
  return w;
}

const count = (sql: string, ...params: unknown[]) => (t.db.prepare(sql).get(...params) as { n: number }).n;
const messageCount = (channel?: string) =>
  channel
    ? count('SELECT count(*) AS n FROM discord_messages WHERE channel_id = ?', channel)
    : count('SELECT count(*) AS n FROM discord_messages');
const messagesOf = (channel: string) => listDiscordMessages(t.db, channel, 0, 1000);
const apiRequests = () => fake.requests.filter((r) => r.url.startsWith('/api/v10/'));
const readable = () => [fake.ids.category, fake.ids.general];
const due = (id: string) => updateImport(t.db, id, { resuming_at: nowIso(new Date(Date.now() - 1000)) });

describe('a full import', () => {
  it('stores the server, its channels and every message with files, and logs what it skipped', async () => {
    const { ids } = fake;
    const id = await queue([ids.category, ids.general, ids.secret, ids.locked, ids.forum, ids.dm, ids.emptyCategory]);
    expect(await worker().runOnce()).toBe(true);

    const done = (await getImport(t.db, id))!;
    expect(done.finished_at).not.toBeNull();
    expect(done.is_key_invalid).toBe(false);
    expect(done.sub_count).toBe(30); // #art-drops (from the category), #general, #rules, the forum's 27 threads
    expect(await getImportWorkKey(t.db, id)).toBeUndefined();

    const creator = (await getCreator(t.db, 'discord', ids.guild))!;
    expect(creator.name).toBe(GUILD_NAME);
    expect(creator.has_chats).toBe(true);
    expect(creator.last_imported).not.toBeNull();
    expect(fs.readFileSync(path.join(t.dir, 'icons', 'discord', ids.guild))).toEqual(
      fake.files.get(`/cdn/icons/${ids.guild}/${fake.guild.icon}.png`),
    );

    const channels = await listDiscordChannels(t.db, ids.guild);
    expect(channels.filter((c) => c.type !== 11).map((c) => [c.name, c.type, c.parent_channel_id, c.post_count])).toEqual([
      ['ART', 4, null, 0],
      ['art-drops', 0, ids.category, 250],
      ['general', 0, null, 4],
      ['rules', 0, null, 0],
      ['feedback', 15, null, 0],
    ]);
    // The forum's posts (threads), listed over two pages of the thread search, each with its message.
    const threads = channels.filter((c) => c.type === 11);
    expect(threads).toHaveLength(27);
    expect(threads.every((c) => c.parent_channel_id === ids.forum && c.post_count === 1)).toBe(true);
    expect(
      apiRequests()
        .filter((r) => r.url.includes('/threads/search'))
        .map((r) => new URL(r.url, 'http://x').searchParams.get('offset')),
    ).toEqual(['0', '25']);
    expect(channels.find((c) => c.name === 'general')!.is_nsfw).toBe(true);
    expect(channels.find((c) => c.name === 'art-drops')!.topic).toBe('New art every week');

    // Every message once; the member-joined system message left out.
    expect(messageCount(ids.art)).toBe(250);
    const art = await messagesOf(ids.art);
    expect(new Set(art.map((m) => m.id)).size).toBe(250);
    expect(art.map((m) => m.id).sort()).toEqual(
      fake.messages
        .get(ids.art)!
        .map((m) => m.id)
        .sort(),
    );
    const general = await messagesOf(ids.general);
    expect(general.map((m) => m.content).reverse()).toEqual([
      'hello <:wave:1187654321098765432>',
      'new post https://example.com/post/1',
      'two files',
      'last one',
    ]);

    // Authors and mentions keep ids and avatar hashes (avatars are not downloaded); times in archive form.
    const thanks = art.find((m) => m.content.startsWith('thanks'))!;
    const source = fake.messages.get(ids.art)!.find((m) => m.id === thanks.id)!;
    expect(thanks.author).toEqual({ ...source.author, global_name: source.author.global_name });
    expect(thanks.mentions).toEqual([expect.objectContaining({ id: source.mentions[0].id, username: 'kiwi_fan' })]);
    expect(thanks.published).toBe(source.timestamp.slice(0, 19));
    expect(thanks.edited).toBeNull();
    expect(general[0].edited).toMatch(/^2024-03-31T00:00:00$/);

    // Attachments are in the content-addressed store and linked for hash search.
    const withFiles = art.filter((m) => m.attachments.length > 0);
    expect(withFiles).toHaveLength(7);
    for (const message of withFiles) {
      const [file] = message.attachments;
      expect(file.path).toMatch(/^\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.png$/);
      expect(fs.existsSync(path.join(t.dir, 'files', file.path))).toBe(true);
    }
    expect(count('SELECT count(*) AS n FROM discord_attachments WHERE hash IS NOT NULL')).toBe(7);

    // The embed's image is the archive's copy; the big file and the one moved off Discord are skipped.
    const embedded = general.find((m) => m.embeds.length > 0)!;
    const thumb = embedded.embeds[0].thumbnail!.url;
    expect(thumb).toMatch(/^\/data\/[0-9a-f]{2}\/[0-9a-f]{2}\/[0-9a-f]{64}\.png$/);
    expect(fs.existsSync(path.join(t.dir, 'files', thumb.slice('/data'.length)))).toBe(true);
    expect(embedded.embeds[0].title).toBe('New illustration');
    expect(general.find((m) => m.content === 'two files')!.attachments).toEqual([]);

    const logs = await getImportLogs(t.db, id);
    for (const line of [
      'Signed in to Discord.',
      `Channel ${ids.secret}: no access.`,
      `Channel ${ids.dm} is a direct message channel; only server channels are archived.`,
      'Category VOICE: no channels that can be read.',
      'Found 30 channels in 1 server.',
      `Channel #feedback 26 (${GUILD_NAME}): imported 1 message.`,
      `Channel #art-drops (${GUILD_NAME}): imported 250 messages.`,
      'Skipped huge.psd: larger than 1 MB.',
      'Skipped moved.png: Discord pointed at localhost, which is not one of its hosts.',
      `Channel #general (${GUILD_NAME}): imported 4 messages.`,
      `Channel #rules (${GUILD_NAME}): no access.`,
      'Imported 30 channels.',
      'Finished.',
    ]) {
      expect(logs).toContain(line);
    }
    expect(logs.join('\n')).not.toContain(fake.token);
    expect(logs.join('\n')).not.toMatch(/hm=|ex=|127\.0\.0\.1/);

    // The token goes bare in Authorization, as Discord's web client sends it; paging is limit=100&after=.
    expect(apiRequests().every((r) => r.authorization === fake.token)).toBe(true);
    const artPages = apiRequests().filter((r) => r.url.startsWith(`/api/v10/channels/${ids.art}/messages`));
    const sorted = fake.messages.get(ids.art)!.map((m) => m.id);
    expect(artPages.map((r) => r.url.split('?')[1])).toEqual([
      'limit=100&after=0',
      `limit=100&after=${sorted[99]}`,
      `limit=100&after=${sorted[199]}`,
      `limit=100&after=${sorted[249]}`,
    ]);
  });

  it('imports again without duplicates, takes edits and new messages, and keeps files once', async () => {
    const first = await queue(readable());
    await worker().runOnce();
    expect((await getImport(t.db, first))!.finished_at).not.toBeNull();
    const before = {
      messages: messageCount(),
      files: count('SELECT count(*) AS n FROM files'),
      attachments: count('SELECT count(*) AS n FROM discord_attachments'),
    };

    const edited = fake.messages.get(fake.ids.art)![120];
    fake.editMessage(fake.ids.art, edited.id, 'art message 120 (fixed typo)');
    const added = fake.addMessages(fake.ids.general, 2);
    const second = await queue(readable());
    await worker().runOnce();
    expect((await getImport(t.db, second))!.finished_at).not.toBeNull();

    expect(messageCount()).toBe(before.messages + 2);
    expect(count('SELECT count(*) AS n FROM files')).toBe(before.files);
    expect(count('SELECT count(*) AS n FROM discord_attachments')).toBe(before.attachments);
    const stored = (await messagesOf(fake.ids.art)).find((m) => m.id === edited.id)!;
    expect(stored.content).toBe('art message 120 (fixed typo)');
    expect(stored.edited).not.toBeNull();
    expect((await messagesOf(fake.ids.general)).slice(0, 2).map((m) => m.id)).toEqual(added.map((m) => m.id).reverse());
    expect(await getImportLogs(t.db, second)).toContain(`Channel #general (${GUILD_NAME}): imported 6 messages.`);
  });

  it('uses the channel list to name categories but stores only the channels it reads', async () => {
    await queue([fake.ids.general]);
    await worker().runOnce();
    expect((await listDiscordChannels(t.db, fake.ids.guild)).map((c) => c.name)).toEqual(['general']);
  });
});

describe('rate limits and outages', () => {
  it('waits out a short 429 (retry_after) and finishes with nothing twice', async () => {
    const id = await queue(readable());
    fake.rateLimitNext(2, 0.2, 4);
    await worker().runOnce();
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect((await getImport(t.db, id))!.retry_count).toBe(0);
    expect(messageCount()).toBe(254);
  });

  it('stops at a long 429, retries later from the cursor (resuming_at), and loses nothing', async () => {
    const id = await queue(readable());
    fake.rateLimitNext(1, 600, 6); // after the plan and the first page of #art-drops
    const w = worker();
    const started = Date.now();
    await w.runOnce();
    const waiting = (await getImport(t.db, id))!;
    expect(waiting.finished_at).toBeNull();
    expect(waiting.retry_count).toBe(1);
    expect(Date.parse(`${waiting.resuming_at}Z`) - started).toBeGreaterThanOrEqual(590_000);
    expect((await getImportLogs(t.db, id)).at(-1)).toMatch(/^Discord error: Discord rate limit reached \(429\); retrying at .+ UTC\.$/);
    const partial = messageCount(fake.ids.art);
    expect(partial).toBeGreaterThan(0);
    expect(partial).toBeLessThan(250);

    await due(id);
    const requestsBefore = apiRequests().length;
    await w.runOnce();
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect(messageCount()).toBe(254);
    // Resumed right after the last stored page, without looking the channels up again.
    const resumed = apiRequests()
      .slice(requestsBefore)
      .map((r) => r.url);
    expect(resumed[0]).toBe('/api/v10/users/@me');
    expect(resumed[1]).toBe(
      `/api/v10/channels/${fake.ids.art}/messages?limit=100&after=${fake.messages.get(fake.ids.art)![partial - 1].id}`,
    );
    const logs = await getImportLogs(t.db, id);
    expect(logs.filter((l) => l.startsWith('Found'))).toHaveLength(1);
    expect(logs).toContain(`Channel #art-drops (${GUILD_NAME}): imported 250 messages.`);
    expect(logs).toContain('Resumed (retry 1).');
  });

  it('waits for a used-up rate-limit bucket to reset before asking again (X-RateLimit-Reset-After)', async () => {
    const id = await queue(readable());
    fake.exhaustedBucketSeconds = 0.1;
    const started = Date.now();
    await worker().runOnce();
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    // /users/@me, the plan's four lookups and six message pages, each followed by a 100 ms wait.
    expect(apiRequests()).toHaveLength(11);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
  });

  it('retries later when Discord answers a shape it does not understand', async () => {
    const id = await queue(readable());
    const broken = fake.addMessages(fake.ids.general, 1)[0] as unknown as Record<string, unknown>;
    delete broken.author;
    const w = worker();
    await w.runOnce();
    const waiting = (await getImport(t.db, id))!;
    expect(waiting.finished_at).toBeNull();
    expect(waiting.retry_count).toBe(1);
    expect((await getImportLogs(t.db, id)).at(-1)).toMatch(
      new RegExp(
        `^Discord error: Discord answered the messages of channel ${fake.ids.general} in a shape the importer does not understand \\(0\\.author: .+\\); retrying at `,
      ),
    );
    expect(messageCount(fake.ids.art)).toBe(250); // what came before stays
  });

  it('retries a 5xx later', async () => {
    const id = await queue(readable());
    fake.failNext(1, 502);
    const w = worker();
    await w.runOnce();
    expect((await getImport(t.db, id))!.retry_count).toBe(1);
    expect((await getImportLogs(t.db, id)).at(-1)).toMatch(/^Discord error: Discord answered 502; retrying at /);
    await due(id);
    await w.runOnce();
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect(messageCount()).toBe(254);
  });
});

describe('refused tokens', () => {
  it('fails the import and marks a kept key dead when the token is refused (401)', async () => {
    const keyId = await addAutoImportKey(t.db, { service: 'discord', encrypted_key: Buffer.from('sealed elsewhere') });
    const id = await queue(readable(), { key: 'MTIzNDU2Nzg5MDEyMzQ1Njc4.AbCdEf.wrong-token-wrong-token-wrong', key_id: keyId });
    await worker().runOnce();
    const failed = (await getImport(t.db, id))!;
    expect(failed.is_key_invalid).toBe(true);
    expect(failed.key_failed_at).not.toBeNull();
    expect(failed.finished_at).not.toBeNull();
    expect((await getImportLogs(t.db, id)).at(-1)).toBe('Discord rejected the session key; the import failed.');
    expect((t.db.prepare('SELECT dead FROM auto_import_keys WHERE id = ?').get(keyId) as { dead: number }).dead).toBe(1);
    expect(messageCount()).toBe(0);
  });

  it('fails an import whose token expires halfway, keeping what was stored', async () => {
    const id = await queue(readable());
    fake.delayMs = 20;
    const w = worker();
    const running = w.runOnce();
    while (messageCount(fake.ids.art) < 100) await sleep(5);
    fake.expireToken();
    await running;
    expect((await getImport(t.db, id))!.is_key_invalid).toBe(true);
    expect(messageCount(fake.ids.art)).toBeGreaterThanOrEqual(100);
    expect((await getImportLogs(t.db, id)).join('\n')).not.toContain(fake.token);
  });
});

describe('crash resume', () => {
  it('stops writing when another worker took the lease, and the next worker resumes from the cursor', async () => {
    const id = await queue(readable());
    fake.delayMs = 20;
    const first = worker();
    const running = first.runOnce();
    while (messageCount(fake.ids.art) < 100) await sleep(5);
    t.db
      .prepare("UPDATE imports SET lease_owner = 'thief', lease_expires_at = ? WHERE id = ?")
      .run(nowIso(new Date(Date.now() - 1000)), id);
    await running;
    const atLoss = messageCount(fake.ids.art);
    expect(atLoss).toBeLessThan(250);
    expect((await getImport(t.db, id))!.finished_at).toBeNull();

    fake.delayMs = 0;
    await worker().runOnce(); // the thief's lease has expired: claimed again
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect(messageCount()).toBe(254);
    expect((await getImportLogs(t.db, id)).filter((l) => l.startsWith('Channel #art-drops'))).toEqual([
      `Channel #art-drops (${GUILD_NAME}): imported 250 messages.`,
    ]);
  });

  it('resumes after the worker stops mid-channel: every message once, no step logged twice', async () => {
    const id = await queue(readable());
    fake.delayMs = 60;
    const first = worker();
    const running = first.runOnce();
    while (messageCount(fake.ids.art) < 100) await sleep(5);
    await first.stop();
    await running;
    const atStop = messageCount();
    expect(atStop).toBeLessThan(254);
    expect((await getImport(t.db, id))!.finished_at).toBeNull();
    expect((await getImport(t.db, id))!.retry_count).toBe(0);

    fake.delayMs = 0;
    await worker().runOnce();
    expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
    expect(messageCount(fake.ids.art)).toBe(250);
    expect(messageCount(fake.ids.general)).toBe(4);
    const logs = await getImportLogs(t.db, id);
    for (const line of ['Found 2 channels in 1 server.', `Channel #art-drops (${GUILD_NAME}): imported 250 messages.`, 'Finished.']) {
      expect(logs.filter((l) => l === line)).toHaveLength(1);
    }
    expect(logs).toContain('The worker stopped; the import will resume.');
    expect(logs).toContain('Resumed after an interruption.');
  });

  it('survives kill -9 of scripts/worker.ts mid-channel: the restart finishes with every message once', async () => {
    const crash = workerCrash(() => ({
      DATA_DIR: t.dir,
      TROVE_ENV: 'test',
      IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1',
      IMPORTER_DISCORD_URL: fake.apiUrl,
      IMPORTER_DISCORD_CDN_URL: fake.cdnUrl,
      IMPORTER_MAX_FILE_MB: '1',
    }));
    try {
      const id = await queue(readable());
      fake.delayMs = 150;
      await crash.killWhen(() => messageCount(fake.ids.art) >= 100);
      expect(messageCount()).toBeLessThan(254);
      expect((await getImport(t.db, id))!.finished_at).toBeNull();

      fake.delayMs = 0;
      await crash.resumeUntil(async () => !!(await getImport(t.db, id))!.finished_at);
      expect(messageCount(fake.ids.art)).toBe(250);
      expect(messageCount(fake.ids.general)).toBe(4);
      const logs = await getImportLogs(t.db, id);
      expect(logs.filter((l) => l === 'Found 2 channels in 1 server.')).toHaveLength(1);
      expect(logs.filter((l) => l === `Channel #art-drops (${GUILD_NAME}): imported 250 messages.`)).toHaveLength(1);
      expect(logs).toContain('Resumed after an interruption.');
      expect(logs.join('\n')).not.toContain(fake.token);
    } finally {
      crash.cleanup();
    }
  }, 90_000);
});
