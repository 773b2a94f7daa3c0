/**
 * receiveUpload (api/media/upload.ts) over real HTTP: a store that refuses a file as too large
 * (FileTooLargeError, as storeStream's maxBytes does) is answered like busboy's own size limit, a 413
 * naming the file, and what was stored is undone.
 */
import request from 'supertest';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createApp } from '@api/app.ts';
import { defineRoutes, route } from '@api/http/route.ts';
import { FileTooLargeError } from '@api/media/store.ts';
import { receiveUpload } from '@api/media/upload.ts';
import { readConfig } from '@api/config.ts';
import { tempDb, type TempDb } from '../data/helpers.ts';

const LIMITS = { maxFileBytes: 1000, maxFiles: 3, maxTotalBytes: 2500 };
let t: TempDb;
let app: ReturnType<typeof createApp>;
const undone: string[][] = [];

beforeAll(() => {
  t = tempDb();
  const uploads = defineRoutes('test-upload', [
    route({
      method: 'post',
      version: 1,
      path: '/test/upload',
      summary: 'Stores the first file, refuses the second as too large.',
      response: z.number(),
      handler: async ({ req }) => {
        let calls = 0;
        const received = await receiveUpload(req, LIMITS, {
          store: async (part, stream) => {
            for await (const _chunk of stream);
            calls += 1;
            if (calls > 1) throw new FileTooLargeError(LIMITS.maxFileBytes);
            return part.filename;
          },
          undo: async (names) => void undone.push(names),
        });
        return received.files.length;
      },
    }),
  ]);
  app = createApp({ db: t.db, config: readConfig({ DATA_DIR: t.dir, TROVE_ENV: 'test' }), routes: [uploads], logger: { error() {} } });
});
afterAll(() => t.cleanup());

describe('receiveUpload', () => {
  it('answers a FileTooLargeError of the store as a 413 naming the file, and undoes the stored files', async () => {
    const answer = await request(app)
      .post('/api/v1/test/upload')
      .attach('file', Buffer.from('small'), 'first.txt')
      .attach('file', Buffer.from('also small'), 'second.txt');
    expect([answer.status, answer.body]).toEqual([413, { error: 'File "second.txt" is larger than 1000 bytes.' }]);
    expect(undone).toEqual([['first.txt']]);
  });
});
