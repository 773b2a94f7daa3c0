/**
 * Every importer honours the do-not-post list (api/importer/do-not-post.ts): each runs against its
 * fake once with nothing listed, then on a fresh archive with its first creator and one post of another
 * creator listed. The listed creator and post are logged once and leave nothing in the database or the
 * icon folder; everything else is imported as before. Discord (one server) and Patreon's DMs through the
 * real worker have their own cases.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { addDoNotPost } from '@api/data/do-not-post.ts';
import { createImport, getImport, getImportLogs } from '@api/data/imports.ts';
import { sealForWorker } from '@api/importer/work-key.ts';
import { startImportWorker } from '@api/importer/worker.ts';
import { listedCreatorLine, listedPostLine } from '@api/importer/do-not-post.ts';
import { dataPaths, readConfig } from '@api/config.ts';
import { FAKE_CREATOR_ID, FAKE_CREATOR_NAME, FAKE_PATREON_KEY, startFakePatreon } from '../../fakes/patreon.ts';
import { startFakeDiscord } from '../../fakes/discord.ts';
import { signIn } from '../../helpers/session.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';
import { importSites, runSiteImport, siteConfig, startSite } from './import-sites.ts';

const opened: TempDb[] = [];
const open = () => {
  const t = tempDb();
  opened.push(t);
  return t;
};
afterEach(() => {
  for (const t of opened.splice(0)) t.cleanup();
});

interface Snapshot {
  creators: { id: string; name: string }[];
  posts: { user: string; id: string; title: string }[];
}

function snapshot(t: TempDb, service: string): Snapshot {
  return {
    creators: t.db.prepare('SELECT id, name FROM creators WHERE service = ? ORDER BY id').all(service) as Snapshot['creators'],
    posts: t.db.prepare('SELECT "user", id, title FROM posts WHERE service = ? ORDER BY "user", id').all(service) as Snapshot['posts'],
  };
}

const key = (p: { user: string; id: string }) => `${p.user}/${p.id}`;
const listedLines = (logs: string[]) => logs.filter((line) => line.endsWith(' is on the do-not-post list; skipped.'));

describe('every importer and the do-not-post list', () => {
  it.each(importSites())('%s: passes over a listed creator and a listed post, imports the rest', { timeout: 120_000 }, async (site) => {
    // Without a list: what this fake's account imports.
    const before = open();
    let fake = await startSite(site);
    let baseline: Snapshot;
    try {
      const logs = await runSiteImport(before.db, siteConfig(before.dir, fake), fake);
      expect(logs.at(-1)).toBe('Finished.');
      baseline = snapshot(before, site);
    } finally {
      await fake.close();
    }
    const withPosts = baseline.creators.filter((c) => baseline.posts.some((p) => p.user === c.id));
    expect(withPosts.length).toBeGreaterThanOrEqual(2);
    const creator = withPosts[0];
    const post = baseline.posts.find((p) => p.user === withPosts[1].id)!;

    const t = open();
    await addDoNotPost(t.db, { service: site, creator_id: creator.id, name: creator.name, reason: 'Owner request' });
    await addDoNotPost(t.db, { service: site, creator_id: post.user, post_id: post.id, name: post.title, reason: 'Owner request' });
    fake = await startSite(site);
    let logs: string[];
    try {
      logs = await runSiteImport(t.db, siteConfig(t.dir, fake), fake);
    } finally {
      await fake.close();
    }

    expect(logs.at(-1)).toBe('Finished.');
    const lines = listedLines(logs);
    expect(lines).toHaveLength(2);
    expect([creator.name, creator.id].map(listedCreatorLine)).toContain(lines.find((l) => l.startsWith('Creator ')));
    expect([post.title, post.id].filter(Boolean).map(listedPostLine)).toContain(lines.find((l) => l.startsWith('Post ')));

    const after = snapshot(t, site);
    expect(after.creators.map((c) => c.id)).toEqual(baseline.creators.filter((c) => c.id !== creator.id).map((c) => c.id));
    expect(after.posts.map(key)).toEqual(baseline.posts.filter((p) => p.user !== creator.id && key(p) !== key(post)).map(key));
    expect(after.posts.length).toBeGreaterThan(0);
    for (const kind of ['icons', 'banners'] as const) {
      expect(fs.existsSync(path.join(dataPaths(t.dir)[kind], site, creator.id))).toBe(false);
    }
  });

  it('discord: a listed server is passed over before it is looked up; nothing of it is stored', { timeout: 60_000 }, async () => {
    const t = open();
    const fake = await startFakeDiscord();
    try {
      const config = readConfig({
        DATA_DIR: t.dir,
        TROVE_ENV: 'test',
        IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1',
        IMPORTER_DISCORD_URL: fake.apiUrl,
        IMPORTER_DISCORD_CDN_URL: fake.cdnUrl,
      });
      await addDoNotPost(t.db, { service: 'discord', creator_id: fake.ids.guild, reason: 'Owner request' });
      const id = 'discord-listed';
      await createImport(t.db, {
        id,
        service: 'discord',
        channel_ids: [fake.ids.category, fake.ids.general].join(','),
        key_id: null,
        work_key: sealForWorker(config, id, fake.token),
      });
      const worker = startImportWorker({ db: t.db, config }, { autoStart: false, backoffMs: 100 });
      try {
        await worker.runOnce();
      } finally {
        await worker.stop();
      }
      const logs = await getImportLogs(t.db, id);
      expect(logs.at(-1)).toBe('Finished.');
      expect(listedLines(logs)).toEqual([listedCreatorLine(fake.ids.guild)]);
      const n = (sql: string) => (t.db.prepare(sql).get() as { n: number }).n;
      expect(n("SELECT count(*) AS n FROM creators WHERE service = 'discord'")).toBe(0);
      expect(n('SELECT count(*) AS n FROM discord_messages')).toBe(0);
      expect(n('SELECT count(*) AS n FROM discord_channels')).toBe(0);
      expect(fake.requests.filter((r) => r.url.includes(`/guilds/${fake.ids.guild}`))).toEqual([]);
      expect(fs.existsSync(path.join(dataPaths(t.dir).icons, 'discord', fake.ids.guild))).toBe(false);
    } finally {
      await fake.close();
    }
  });
});

describe('a listed Patreon creator through the worker', () => {
  it('finishes with the line once, and stores no post, DM, creator row or icon of it', { timeout: 60_000 }, async () => {
    const t = open();
    const fake = await startFakePatreon({ pageSize: 5 });
    try {
      const config = readConfig({
        DATA_DIR: t.dir,
        TROVE_ENV: 'test',
        IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1',
        IMPORTER_PATREON_URL: fake.url,
      });
      const { account } = await signIn(t.db);
      await addDoNotPost(t.db, { service: 'patreon', creator_id: FAKE_CREATOR_ID, reason: 'Owner request' });
      const id = 'patreon-listed';
      await createImport(t.db, {
        id,
        service: 'patreon',
        save_dms: true,
        account_id: account.id,
        work_key: sealForWorker(config, id, FAKE_PATREON_KEY),
      });
      const worker = startImportWorker({ db: t.db, config }, { autoStart: false, backoffMs: 100 });
      try {
        await worker.runOnce();
      } finally {
        await worker.stop();
      }
      expect((await getImport(t.db, id))!.finished_at).not.toBeNull();
      const logs = await getImportLogs(t.db, id);
      expect(logs.at(-1)).toBe('Finished.');
      expect(logs.filter((l) => l === listedCreatorLine(FAKE_CREATOR_NAME))).toHaveLength(1);
      const n = (sql: string) => (t.db.prepare(sql).get() as { n: number }).n;
      expect(n('SELECT count(*) AS n FROM posts')).toBe(0);
      expect(n('SELECT count(*) AS n FROM dms')).toBe(0);
      expect(n('SELECT count(*) AS n FROM creators')).toBe(0);
      expect(n('SELECT count(*) AS n FROM files')).toBe(0);
      expect(fs.existsSync(path.join(dataPaths(t.dir).icons, 'patreon', FAKE_CREATOR_ID))).toBe(false);
    } finally {
      await fake.close();
    }
  });
});
