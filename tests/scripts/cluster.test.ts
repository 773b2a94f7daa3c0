/**
 * The cluster as it runs (scripts/lib/cluster.ts): PostgreSQL, 2 web nodes, 2 import workers and nginx,
 * each a real process, with the fake Patreon as the paysite. Sessions and favourites cross nodes, an
 * import killed with its worker is finished by the other one with nothing lost or doubled, its posts reach
 * both nodes' pages through the shared page store, and killing the leading node during a load run through
 * nginx loses no request and hands its role on.
 *
 * Heavy (a minute or two of real processes): `npm test` runs it as a suite of its own
 * (TROVE_TEST_SUITE=cluster), not in the parallel vitest run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { upsertCreator } from '@api/data/creators.ts';
import { closeStore, postgresStore } from '@api/data/store.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCluster, type Member, type RunningCluster } from '../../scripts/lib/cluster.ts';
import { freePort } from '../../scripts/lib/postgres-cluster.ts';
import { demoDataset, FAKE_CREATOR_ID, FAKE_PATREON_KEY, startFakePatreon, type FakePatreon } from '../fakes/patreon.ts';

const POSTS = 40;
const REBUILD_SECONDS = 2;

let fake: FakePatreon;
let cluster: RunningCluster;
let dir: string;
let sql: pg.Client;

async function waitFor<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 60_000): Promise<T> {
  for (const started = Date.now(); Date.now() - started < timeoutMs; await sleep(200)) {
    const value = await probe().catch(() => undefined);
    if (value) return value;
  }
  throw new Error(`Timed out waiting for ${what}`);
}

const logOf = (member: Member) => fs.readFileSync(path.join(dir, 'logs', `${member.name}.log`), 'utf8');
const nodeUrl = (n: number) => cluster.nodes[n].url as string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'trove-cluster-'));
  // Two posts a page and real files: the import takes long enough to kill its worker halfway.
  fake = await startFakePatreon({ dataset: demoDataset({ posts: POSTS }), pageSize: 2 });
  const port = await freePort();
  cluster = await startCluster({
    nodes: 2,
    workers: 2,
    dir,
    port,
    firstNodePort: await freePort(),
    fastPostgres: true,
    env: {
      TROVE_ENV: 'test',
      LOG_FORMAT: 'pretty',
      REBUILD_INTERVAL_SECONDS: String(REBUILD_SECONDS),
      IMPORT_LEASE_SECONDS: '3',
      IMPORTER_PATREON_URL: fake.url,
      IMPORTER_ALLOW_PRIVATE_ADDRESSES: '1',
    },
  });
  sql = new pg.Client({ connectionString: cluster.databaseUrl });
  await sql.connect();
}, 300_000);

afterAll(async () => {
  await sql?.end();
  await cluster?.stop();
  await fake?.close();
  // TROVE_KEEP_CLUSTER=1 keeps the folder (the members' logs) to look at after a failure.
  if (process.env.TROVE_KEEP_CLUSTER) console.log(`The cluster's folder: ${dir}`);
  else fs.rmSync(dir, { recursive: true, force: true });
}, 120_000);

async function json(url: string, init: RequestInit = {}): Promise<{ status: number; body: unknown; cookie?: string }> {
  const answer = await fetch(url, { ...init, headers: { 'content-type': 'application/json', ...init.headers } });
  const text = await answer.text();
  const cookie = answer.headers.getSetCookie().find((line) => line.startsWith('session='));
  return { status: answer.status, body: text ? JSON.parse(text) : undefined, cookie: cookie?.split(';')[0] };
}

describe('a cluster of 2 web nodes, 2 workers and nginx on PostgreSQL', () => {
  let cookie: string;

  it('keeps a session made through one node working on the other, and a favourite shows through both', async () => {
    const account = { username: 'cluster-user', password: 'cluster-password-1' };
    const registered = await json(`${nodeUrl(0)}/api/v1/authentication/register`, {
      method: 'POST',
      body: JSON.stringify({ ...account, confirm_password: account.password }),
    });
    expect(registered.status).toBeLessThan(300);
    const login = await json(`${nodeUrl(0)}/api/v1/authentication/login`, { method: 'POST', body: JSON.stringify(account) });
    expect(login.status).toBe(200);
    cookie = login.cookie as string;
    expect(cookie).toMatch(/^session=/);

    const onOther = await json(`${nodeUrl(1)}/api/v1/account`, { headers: { cookie } });
    expect(onOther.status).toBe(200);
    expect(onOther.body).toMatchObject({ props: { account: { username: 'cluster-user' } } });

    const creators = (await json(`${cluster.url}/api/v1/creators`)).body as Array<{ service: string; id: string }>;
    const { service, id } = creators[0];
    expect((await json(`${nodeUrl(0)}/api/v1/favorites/creator/${service}/${id}`, { method: 'POST', headers: { cookie } })).status).toBe(
      200,
    );
    for (const node of [nodeUrl(1), cluster.url]) {
      const favorites = (await json(`${node}/api/v1/account/favorites`, { headers: { cookie } })).body as Array<{ id: string }>;
      expect(favorites.map((favorite) => favorite.id)).toContain(id);
    }
  }, 60_000);

  it('finishes an import whose worker is killed halfway on the other worker, and its posts reach both nodes', async () => {
    const submitted = await json(`${cluster.url}/api/v1/importer/submit`, {
      method: 'POST',
      headers: { cookie },
      body: JSON.stringify({ service: 'patreon', session_key: FAKE_PATREON_KEY }),
    });
    expect(submitted.status).toBe(200);
    const importId = (submitted.body as { import_id: string }).import_id;

    const countPosts = async () =>
      Number((await sql.query('SELECT count(*) AS n FROM posts WHERE service = \'patreon\' AND "user" = $1', [FAKE_CREATOR_ID])).rows[0].n);
    const owner = await waitFor('the import to be halfway', async () => {
      const { rows } = await sql.query('SELECT lease_owner FROM imports WHERE id = $1', [importId]);
      return (await countPosts()) >= 6 && (rows[0]?.lease_owner as string | undefined);
    });
    // The lease owner is host:pid:random; the worker with that pid dies without a word.
    const victim = cluster.workers.find((worker) => owner.split(':')[1] === String(worker.child.pid));
    expect(victim).toBeDefined();
    victim?.child.kill('SIGKILL');
    await victim?.exited;
    expect(await countPosts()).toBeLessThan(POSTS);

    const finished = await waitFor(
      'the other worker to finish the import',
      async () => {
        const { rows } = await sql.query('SELECT finished_at, lease_owner FROM imports WHERE id = $1', [importId]);
        return rows[0]?.finished_at ? rows[0] : undefined;
      },
      120_000,
    );
    expect(finished.lease_owner ?? '').not.toContain(`:${victim?.child.pid}:`);
    // Every post once, none of them written twice into an older version, none without its files.
    expect(await countPosts()).toBe(POSTS);
    const revisions = await sql.query('SELECT count(*) AS n FROM post_revisions WHERE service = \'patreon\' AND "user" = $1', [
      FAKE_CREATOR_ID,
    ]);
    expect(Number(revisions.rows[0].n)).toBe(0);
    const { rows: withFiles } = await sql.query(
      `SELECT p.id, count(f.hash) AS files FROM posts p LEFT JOIN post_files f ON f.post_seq = p.seq
        WHERE p.service = 'patreon' AND p."user" = $1 GROUP BY p.id`,
      [FAKE_CREATOR_ID],
    );
    const filesOf = new Map(withFiles.map((row) => [row.id as string, Number(row.files)]));
    for (const post of fake.dataset.campaigns[0].posts.filter((candidate) => !candidate.locked)) {
      if (post.file || post.images.length > 0 || post.attachments.length > 0) expect(filesOf.get(post.id), post.id).toBeGreaterThan(0);
    }

    // The creator's page, from the shared page store, lists the newest post on both nodes in time.
    const finishedAt = Date.now();
    const newest = fake.dataset.campaigns[0].posts[0];
    const creatorPage = `/patreon/user/${FAKE_CREATOR_ID}`;
    for (const node of [nodeUrl(0), nodeUrl(1), cluster.url]) {
      await waitFor(
        `${node}${creatorPage} to list the imported posts`,
        async () => (await (await fetch(`${node}${creatorPage}`)).text()).includes(newest.title),
        (REBUILD_SECONDS + 30) * 1000,
      );
    }
    console.log(
      `The imported posts were on both nodes' stored pages ${((Date.now() - finishedAt) / 1000).toFixed(1)} s after the import finished.`,
    );
  }, 240_000);

  it('loses no request when the leading web node is killed during a load run, and another node takes its role', async () => {
    const leaderPid = await waitFor('a leader', async () => {
      const { rows } = await sql.query(
        `SELECT a.client_port FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
          WHERE l.locktype = 'advisory' AND l.objid = 7465002 AND l.granted`,
      );
      if (rows.length !== 1) return undefined;
      return cluster.nodes.find((node) => logOf(node).includes(`Leading auto-import (pid ${node.child.pid})`))?.child.pid;
    });
    const leader = cluster.nodes.find((node) => node.child.pid === leaderPid) as Member;
    const survivor = cluster.nodes.find((node) => node !== leader) as Member;

    // Requests nginx cannot answer from disk: API answers and pages rendered by a node.
    const urls = ['/api/v1/creators', `/api/v1/patreon/user/${FAKE_CREATOR_ID}/posts`, '/posts?q=fake', '/artists?q=fake'];
    const outcomes: Array<number | string> = [];
    let running = true;
    const client = async (n: number) => {
      for (let i = n; running; i += 1) {
        const answer = await fetch(`${cluster.url}${urls[i % urls.length]}`).catch((error: Error) => error.message);
        outcomes.push(typeof answer === 'string' ? answer : answer.status);
        if (typeof answer !== 'string') await answer.arrayBuffer();
      }
    };
    const clients = Array.from({ length: 8 }, (_, n) => client(n));
    await sleep(1500);
    leader.child.kill('SIGKILL');
    const killedAt = Date.now();
    await leader.exited;
    await sleep(3000);
    running = false;
    await Promise.all(clients);

    expect(outcomes.length).toBeGreaterThan(50);
    expect(outcomes.filter((outcome) => outcome !== 200)).toEqual([]);

    console.log(`Load run through nginx: ${outcomes.length} requests, none lost, the leading node killed 1.5 s in.`);
    await waitFor(
      'the surviving node to lead',
      async () => logOf(survivor).includes(`Leading auto-import (pid ${survivor.child.pid})`),
      60_000,
    );
    console.log(`The other node led auto-import within ${((Date.now() - killedAt) / 1000).toFixed(1)} s of the kill.`);
    // The page store still follows the archive with the old leader gone: a rename reaches the stored page.
    const db = postgresStore(cluster.databaseUrl, { max: 1 });
    try {
      expect(await upsertCreator(db, { service: 'patreon', id: FAKE_CREATOR_ID, name: 'Renamed In Cluster' })).toBe('updated');
    } finally {
      await closeStore(db);
    }
    await waitFor(
      'the rename to reach the stored creator page',
      async () => (await (await fetch(`${cluster.url}/patreon/user/${FAKE_CREATOR_ID}`)).text()).includes('Renamed In Cluster'),
      (REBUILD_SECONDS + 30) * 1000,
    );
  }, 180_000);
});
