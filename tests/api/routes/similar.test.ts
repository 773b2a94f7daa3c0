/** GET /api/v1/{service}/user/{id}/recommended: the stored similar creators, in the shape kemono's clients read. */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '@api/app.ts';
import { readConfig } from '@api/config.ts';
import { recomputeAllSimilar } from '@api/similar/job.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';
import { buildArchive } from '../similar/fixture.ts';

let temp: TempDb;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  temp = tempDb();
  await buildArchive(temp.db);
  await recomputeAllSimilar(temp.db);
  app = createApp({ db: temp.db, config: readConfig({ DATA_DIR: temp.dir, TROVE_ENV: 'test' }), logger: { error() {} } });
});

afterAll(() => temp.cleanup());

describe('GET /api/v1/{service}/user/{id}/recommended', () => {
  it('answers the similar creators best first, with ISO dates and a score', async () => {
    const answer = await request(app).get('/api/v1/fanbox/user/ann/recommended');
    expect(answer.status).toBe(200);
    expect(Array.isArray(answer.body)).toBe(true);
    const [first] = answer.body;
    expect(Object.keys(first).sort()).toEqual(['id', 'indexed', 'name', 'public_id', 'relation_id', 'score', 'service', 'updated']);
    expect(first).toMatchObject({ id: 'bea', service: 'fanbox', name: 'Creator bea', public_id: null, relation_id: null });
    expect(first.indexed).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/);
    expect(typeof first.score).toBe('number');
    const scores = answer.body.map((entry: { score: number }) => entry.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(answer.body.map((entry: { id: string }) => entry.id)).not.toContain('ann');
  });

  it('answers an empty list for a creator with nothing similar', async () => {
    const answer = await request(app).get('/api/v1/patreon/user/cal/recommended');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual([]);
  });

  it('answers 404 for an unknown creator, as its profile does', async () => {
    const answer = await request(app).get('/api/v1/fanbox/user/nobody/recommended');
    const profile = await request(app).get('/api/v1/fanbox/user/nobody/profile');
    expect(answer.status).toBe(404);
    expect(answer.body).toEqual(profile.body);
  });
});
