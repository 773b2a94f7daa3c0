/**
 * The one error map (api/http/errors.ts): typed errors keep their status, the archive lister's
 * ArchiveBusyError becomes a 503 the client may retry, anything unknown stays unmapped (a logged 500),
 * and a route throwing them answers accordingly over real HTTP.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp } from '@api/app.ts';
import { ConflictError, asHttpError } from '@api/http/errors.ts';
import { defineRoutes, route } from '@api/http/route.ts';
import { ArchiveBusyError } from '@api/media/archives.ts';
import { readConfig } from '@api/config.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

const BUSY = 'Too many archives are being read, try again later.';

describe('asHttpError', () => {
  it('maps the errors that reach routes', () => {
    const conflict = new ConflictError('Already done.');
    expect(asHttpError(conflict)).toBe(conflict);
    expect(asHttpError(new ArchiveBusyError())).toMatchObject({ status: 503, message: BUSY, headers: { 'Retry-After': '5' } });
    expect(asHttpError(new Error('boom'))).toBeUndefined();
  });
});

describe('a route throwing ArchiveBusyError', () => {
  let t: TempDb;
  let app: ReturnType<typeof createApp>;
  beforeAll(() => {
    t = tempDb();
    const busy = defineRoutes('test-busy', [
      route({
        method: 'get',
        version: [1, 2],
        path: '/test/busy',
        summary: 'Always busy.',
        response: z.string(),
        handler: () => {
          throw new ArchiveBusyError();
        },
      }),
    ]);
    app = createApp({ db: t.db, config: readConfig({ DATA_DIR: t.dir, TROVE_ENV: 'test' }), routes: [busy], logger: { error() {} } });
  });
  afterAll(() => t.cleanup());

  it('answers 503 with Retry-After, in v1 and v2', async () => {
    const v1 = await request(app).get('/api/v1/test/busy');
    expect([v1.status, v1.headers['retry-after'], v1.body]).toEqual([503, '5', { error: BUSY }]);
    const v2 = await request(app).get('/api/v2/test/busy');
    expect([v2.status, v2.body]).toEqual([503, { type: 'api_error', error: { type: 'service_unavailable', message: BUSY } }]);
  });
});
